package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackFilesSecretsTest {

    @Test
    void theFirstRunMakesRandomSecretsAndLaterRunsKeepThem(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("secrets.env");

        StackFiles.Secrets first = new StackFiles(dir).loadOrCreateSecrets();
        StackFiles.Secrets second = new StackFiles(dir).loadOrCreateSecrets();

        assertThat(Base64.getUrlDecoder().decode(first.internalAuthSecret())).hasSize(48);
        assertThat(Base64.getUrlDecoder().decode(first.chainWatcherSecret())).hasSize(48);
        assertThat(first.chainWatcherSecret()).isNotEqualTo(first.internalAuthSecret());
        assertThat(Base64.getUrlDecoder().decode(first.adminToken())).hasSize(32);
        assertThat(Base64.getDecoder().decode(first.webhookEncryptionKey())).hasSize(32);
        assertThat(second).isEqualTo(first);
        assertThat(Files.readAllLines(file))
                .containsExactly(
                        "INTERNAL_AUTH_SECRET=" + first.internalAuthSecret(),
                        "CHAIN_WATCHER_INTERNAL_AUTH_SECRET=" + first.chainWatcherSecret(),
                        "GATEWAY_ADMIN_TOKEN=" + first.adminToken(),
                        "WEBHOOK_SECRET_ENCRYPTION_KEY=" + first.webhookEncryptionKey());
    }

    @Test
    void onlyAMissingSecretIsAddedAndOtherLinesStay(@TempDir Path dir) {
        Path file = dir.resolve("secrets.env");
        Map<String, String> saved = new LinkedHashMap<>();
        saved.put("INTERNAL_AUTH_SECRET", "kept-internal-secret");
        saved.put("GATEWAY_ADMIN_TOKEN", "kept-token");
        saved.put("SOMETHING_ELSE", "kept-too");
        EnvFile.write(file, saved);

        StackFiles.Secrets secrets = new StackFiles(dir).loadOrCreateSecrets();

        assertThat(secrets.adminToken()).isEqualTo("kept-token");
        assertThat(secrets.internalAuthSecret()).isEqualTo("kept-internal-secret");
        assertThat(secrets.chainWatcherSecret())
                .as("a data directory from before the chain watcher had its own secret gets one")
                .isNotBlank();
        assertThat(EnvFile.read(file))
                .containsEntry("SOMETHING_ELSE", "kept-too")
                .containsEntry("CHAIN_WATCHER_INTERNAL_AUTH_SECRET", secrets.chainWatcherSecret())
                .containsEntry("WEBHOOK_SECRET_ENCRYPTION_KEY", secrets.webhookEncryptionKey());
    }

    @Test
    void toStringShowsNoSecret() {
        assertThat(new StackFiles.Secrets("a", "b", "c", "d")).hasToString("Secrets[<redacted>]");
    }
}
