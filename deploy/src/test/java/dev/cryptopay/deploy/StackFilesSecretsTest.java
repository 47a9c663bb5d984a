package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.auth.internal.InternalTokenSigner;
import dev.cryptopay.auth.keys.Ed25519KeyPairs;
import dev.cryptopay.auth.keys.KeyAlgorithm;
import dev.cryptopay.auth.keys.VerificationKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackFilesSecretsTest {

    @Test
    void theFirstRunMakesRandomSecretsAndKeyPairsAndLaterRunsKeepThem(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("secrets.env");

        StackFiles.Secrets first = new StackFiles(dir).loadOrCreateSecrets();
        StackFiles.Secrets second = new StackFiles(dir).loadOrCreateSecrets();

        assertThat(first.gateway().privateKey()).startsWith("Ed25519:");
        assertThat(first.chainWatcher().privateKey()).startsWith("Ed25519:");
        assertThat(first.chainWatcher()).isNotEqualTo(first.gateway());
        assertThat(first.chainWatcher().publicKey())
                .isNotEqualTo(first.gateway().publicKey());
        assertThat(VerificationKey.parse(first.gateway().publicKey()).algorithm())
                .isEqualTo(KeyAlgorithm.ED25519);
        assertThat(Base64.getUrlDecoder().decode(first.adminToken())).hasSize(32);
        assertThat(Base64.getDecoder().decode(first.webhookEncryptionKey())).hasSize(32);
        assertThat(second).isEqualTo(first);
        assertThat(Files.readAllLines(file))
                .as("only the private keys are kept: each public key is derived from its private key")
                .containsExactly(
                        "GATEWAY_INTERNAL_AUTH_PRIVATE_KEY=" + first.gateway().privateKey(),
                        "CHAIN_WATCHER_INTERNAL_AUTH_PRIVATE_KEY="
                                + first.chainWatcher().privateKey(),
                        "GATEWAY_ADMIN_TOKEN=" + first.adminToken(),
                        "WEBHOOK_SECRET_ENCRYPTION_KEY=" + first.webhookEncryptionKey());
    }

    @Test
    void eachPublicKeyIsThatOfItsPrivateKey(@TempDir Path dir) {
        StackFiles.Secrets secrets = new StackFiles(dir).loadOrCreateSecrets();

        assertThat(InternalTokenSigner.parse(
                                InternalCallers.GATEWAY, secrets.gateway().privateKey())
                        .verificationKey()
                        .toBase64())
                .isEqualTo(secrets.gateway().publicKey());
        assertThat(InternalTokenSigner.parse(
                                InternalCallers.CHAIN_WATCHER,
                                secrets.chainWatcher().privateKey())
                        .verificationKey()
                        .toBase64())
                .isEqualTo(secrets.chainWatcher().publicKey());
    }

    @Test
    void aFileFromBeforeTheKeyPairsGetsThemAndLosesTheSharedSecrets(@TempDir Path dir) {
        Path file = dir.resolve("secrets.env");
        Map<String, String> saved = new LinkedHashMap<>();
        saved.put("INTERNAL_AUTH_SECRET", "retired-internal-secret");
        saved.put("CHAIN_WATCHER_INTERNAL_AUTH_SECRET", "retired-chain-watcher-secret");
        saved.put("GATEWAY_ADMIN_TOKEN", "kept-token");
        saved.put("WEBHOOK_SECRET_ENCRYPTION_KEY", "kept-key");
        saved.put("SOMETHING_ELSE", "kept-too");
        EnvFile.write(file, saved);

        StackFiles.Secrets secrets = new StackFiles(dir).loadOrCreateSecrets();

        assertThat(secrets.adminToken()).isEqualTo("kept-token");
        assertThat(secrets.webhookEncryptionKey())
                .as("stored webhook secrets stay readable")
                .isEqualTo("kept-key");
        assertThat(EnvFile.read(file))
                .containsEntry("SOMETHING_ELSE", "kept-too")
                .containsEntry(
                        "GATEWAY_INTERNAL_AUTH_PRIVATE_KEY", secrets.gateway().privateKey())
                .containsEntry(
                        "CHAIN_WATCHER_INTERNAL_AUTH_PRIVATE_KEY",
                        secrets.chainWatcher().privateKey())
                .doesNotContainKeys("INTERNAL_AUTH_SECRET", "CHAIN_WATCHER_INTERNAL_AUTH_SECRET");
    }

    @Test
    void aKeptPrivateKeyStaysAndOnlyTheMissingOneIsMade(@TempDir Path dir) {
        Path file = dir.resolve("secrets.env");
        String gateway = Ed25519KeyPairs.generate(new SecureRandom()).privateKeyCompact();
        Map<String, String> saved = new LinkedHashMap<>();
        saved.put("GATEWAY_INTERNAL_AUTH_PRIVATE_KEY", gateway);
        saved.put("CHAIN_WATCHER_INTERNAL_AUTH_PRIVATE_KEY", "");
        EnvFile.write(file, saved);

        StackFiles.Secrets secrets = new StackFiles(dir).loadOrCreateSecrets();

        assertThat(secrets.gateway().privateKey()).isEqualTo(gateway);
        assertThat(secrets.chainWatcher().privateKey())
                .as("an empty line counts as missing")
                .startsWith("Ed25519:");
        assertThat(EnvFile.read(file))
                .containsEntry(
                        "CHAIN_WATCHER_INTERNAL_AUTH_PRIVATE_KEY",
                        secrets.chainWatcher().privateKey());
    }

    @Test
    void aPrivateKeyThatIsNoEd25519KeyStopsTheStartAndSaysWhatToDo(@TempDir Path dir) {
        EnvFile.write(dir.resolve("secrets.env"), Map.of("GATEWAY_INTERNAL_AUTH_PRIVATE_KEY", "not-a-key"));

        assertThatThrownBy(() -> new StackFiles(dir).loadOrCreateSecrets())
                .isInstanceOf(StackStartException.class)
                .hasMessageContaining("GATEWAY_INTERNAL_AUTH_PRIVATE_KEY")
                .hasMessageContaining("is not an Ed25519 private key")
                .hasMessageContaining("Delete its line")
                .hasMessageNotContaining("not-a-key");
    }

    @Test
    void toStringShowsNoSecret() {
        StackFiles.InternalKeyPair pair = new StackFiles.InternalKeyPair("Ed25519:private", "public");

        assertThat(new StackFiles.Secrets(pair, pair, "c", "d")).hasToString("Secrets[<redacted>]");
        assertThat(pair.toString()).contains("public").doesNotContain("Ed25519:private");
    }
}
