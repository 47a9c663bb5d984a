package dev.cryptopay.chainwatcher.keeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SignatureException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Keys;
import org.web3j.crypto.SignedRawTransaction;
import org.web3j.crypto.TransactionDecoder;
import org.web3j.crypto.transaction.type.Transaction1559;
import org.web3j.utils.Numeric;

/** The keeper key file: read with or without 0x, never shown, and transactions signed by it for its chain. */
class SignerTest {

    private static final ECKeyPair PAIR = fresh();
    private static final String KEY = Numeric.toHexStringNoPrefixZeroPadded(PAIR.getPrivateKey(), 64);
    private static final String ADDRESS = "0x" + Keys.getAddress(PAIR);

    @TempDir
    private Path dir;

    @Test
    void readsAHexKeyWithOrWithout0xAndShowsOnlyItsAddress() throws IOException {
        Signer with = Signer.read(write("  0x" + KEY + "\n"), 31337);
        Signer without = Signer.read(write(KEY), 31337);

        assertThat(with.address()).isEqualTo(ADDRESS);
        assertThat(without.address()).isEqualTo(ADDRESS);
        assertThat(with.toString()).contains(ADDRESS).doesNotContain(KEY);
    }

    @Test
    void aFileWithoutAKeyStopsTheStartWithoutShowingWhatItHolds() throws IOException {
        String almost = KEY.substring(1);
        Path file = write("0x" + almost);
        assertThatThrownBy(() -> Signer.read(file, 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(file.toString())
                .hasMessageNotContaining(almost);
        assertThatThrownBy(() -> Signer.read(dir.resolve("missing.key"), 1))
                .hasMessageContaining("Cannot read the keeper key file");
        assertThatThrownBy(() -> Signer.read(write("0x" + "0".repeat(64)), 1))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void signsEip1559AndLegacyTransactionsForItsChain() throws IOException, SignatureException {
        Signer signer = Signer.read(write(KEY), 31337);
        Fees fees = new Fees(BigInteger.valueOf(3_000_000_000L), BigInteger.valueOf(1_000_000_000L));

        Signer.Signed signed = signer.sign(7, ADDRESS, "0x", BigInteger.valueOf(21_000), fees);
        SignedRawTransaction decoded = (SignedRawTransaction) TransactionDecoder.decode(signed.raw());
        assertThat(decoded.getFrom()).isEqualTo(ADDRESS);
        assertThat(decoded.getNonce()).isEqualTo(7);
        assertThat(decoded.getTransaction()).isInstanceOf(Transaction1559.class);
        assertThat(((Transaction1559) decoded.getTransaction()).getChainId()).isEqualTo(31337L);
        assertThat(signed.hash()).hasSize(66);

        Signer.Signed legacy =
                signer.sign(8, ADDRESS, "0x", BigInteger.valueOf(21_000), new Fees(BigInteger.TEN, null));
        SignedRawTransaction legacyDecoded = (SignedRawTransaction) TransactionDecoder.decode(legacy.raw());
        assertThat(legacyDecoded.getFrom()).isEqualTo(ADDRESS);
        assertThat(legacyDecoded.getChainId()).isEqualTo(31337L);
        assertThat(legacyDecoded.getGasPrice()).isEqualTo(BigInteger.TEN);
    }

    private static ECKeyPair fresh() {
        try {
            return Keys.createEcKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private Path write(String content) throws IOException {
        Path file = Files.createTempFile(dir, "keeper", ".key");
        Files.writeString(file, content);
        return file;
    }
}
