package dev.cryptopay.subscriptions.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.web3j.crypto.StructuredDataEncoder;
import org.web3j.utils.Numeric;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The plan's EIP-712 encoding against known answers: the specification's own "Mail" example, and plan digests and
 * signatures made by an independent wallet library (ethers; see src/test/resources/eip712/README.md).
 */
class Eip712VectorsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonNode VECTORS = load();

    @Test
    void theSpecificationsMailExampleHashesToItsPublishedDigest() throws IOException {
        JsonNode mail = VECTORS.get("mail");
        String digest = Numeric.toHexString(
                new StructuredDataEncoder(JSON.writeValueAsString(mail.get("typed_data"))).hashStructuredData());
        assertThat(digest)
                .isEqualTo(mail.get("digest").asString())
                .isEqualTo("0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("plans")
    void planDigestsAndSignersMatchTheWalletLibrary(String name, JsonNode vector) {
        JsonNode typedData = vector.get("typed_data");
        JsonNode domain = typedData.get("domain");
        PlanTypedData ours = PlanTypedData.of(
                JSON.treeToValue(typedData.get("message"), PlanTypedData.Message.class),
                domain.get("chainId").asLong(),
                domain.get("verifyingContract").asString());

        assertThat(ours.digest()).isEqualTo(vector.get("digest").asString());
        assertThat(JSON.readTree(ours.toJson()))
                .as("the typed data a wallet receives is the wallet library's")
                .isEqualTo(typedData);
        assertThat(EthSignatures.signer(ours.digest(), vector.get("signature").asString()))
                .hasValue(vector.get("signer").asString());
    }

    @Test
    void termsBecomeTheMessageTheWalletLibrarySigned() {
        JsonNode amountPlan = plan(0);
        PlanTerms terms = new PlanTerms(
                "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
                "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
                "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
                new BigInteger("10000000"),
                "",
                "",
                2592000,
                604800,
                259200,
                3,
                86400,
                0);
        PlanTypedData typedData = PlanTypedData.of(terms, 31337, "0x5FbDB2315678afecb367f032d93F642f64180aa3");
        assertThat(typedData.digest()).isEqualTo(amountPlan.get("digest").asString());
    }

    @Test
    void aSignatureOfOtherTermsRecoversAnotherAddress() {
        JsonNode first = plan(0);
        JsonNode valuePlan = plan(2);
        assertThat(EthSignatures.signer(
                        valuePlan.get("digest").asString(),
                        first.get("signature").asString()))
                .isPresent()
                .get()
                .isNotEqualTo(first.get("signer").asString());
    }

    @Test
    void malformedAndMalleableSignaturesRecoverNoSigner() {
        JsonNode vector = plan(0);
        String digest = vector.get("digest").asString();
        String signature = vector.get("signature").asString();
        assertThat(EthSignatures.signer(digest, "0x1234")).isEmpty();
        assertThat(EthSignatures.signer(digest, signature.substring(0, 130))).isEmpty();
        assertThat(EthSignatures.signer(digest, signature.substring(0, 130) + "1d"))
                .as("v must be 27 or 28 (or 0 or 1)")
                .isEmpty();
        // The malleable twin (r, n - s, flipped v) recovers the same key; it is refused all the same.
        BigInteger n = org.web3j.crypto.Sign.CURVE_PARAMS.getN();
        byte[] bytes = Numeric.hexStringToByteArray(signature);
        BigInteger s = new BigInteger(1, java.util.Arrays.copyOfRange(bytes, 32, 64));
        String highS = Numeric.toHexStringNoPrefixZeroPadded(n.subtract(s), 64);
        int v = bytes[64] & 0xff;
        String twin = signature.substring(0, 66) + highS + Integer.toHexString(v == 27 ? 28 : 27);
        assertThat(EthSignatures.signer(digest, twin)).isEmpty();
    }

    static List<Object[]> plans() {
        return StreamSupport.stream(VECTORS.get("plans").spliterator(), false)
                .map(vector -> new Object[] {vector.get("name").asString(), vector})
                .toList();
    }

    private static JsonNode plan(int index) {
        return VECTORS.get("plans").get(index);
    }

    private static JsonNode load() {
        try (InputStream in = Eip712VectorsTest.class.getResourceAsStream("/eip712/vectors.json")) {
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
