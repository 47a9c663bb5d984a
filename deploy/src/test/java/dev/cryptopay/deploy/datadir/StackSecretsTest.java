package dev.cryptopay.deploy.datadir;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.deploy.EnvFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackSecretsTest {

    @Test
    void theFirstRunMakesRandomSecretsAndLaterRunsKeepThem(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("secrets.env");

        StackSecrets first = StackSecrets.loadOrCreate(file);
        StackSecrets second = StackSecrets.loadOrCreate(file);

        assertThat(Base64.getUrlDecoder().decode(first.internalAuthSecret())).hasSize(48);
        assertThat(Base64.getUrlDecoder().decode(first.adminToken())).hasSize(32);
        assertThat(Base64.getDecoder().decode(first.webhookEncryptionKey())).hasSize(32);
        assertThat(second).isEqualTo(first);
        assertThat(Files.readAllLines(file))
                .containsExactly(
                        "INTERNAL_AUTH_SECRET=" + first.internalAuthSecret(),
                        "GATEWAY_ADMIN_TOKEN=" + first.adminToken(),
                        "WEBHOOK_SECRET_ENCRYPTION_KEY=" + first.webhookEncryptionKey());
    }

    @Test
    void onlyAMissingSecretIsAddedAndOtherLinesStay(@TempDir Path dir) {
        Path file = dir.resolve("secrets.env");
        Map<String, String> saved = new LinkedHashMap<>();
        saved.put("GATEWAY_ADMIN_TOKEN", "kept-token");
        saved.put("SOMETHING_ELSE", "kept-too");
        EnvFile.write(file, saved);

        StackSecrets secrets = StackSecrets.loadOrCreate(file);

        assertThat(secrets.adminToken()).isEqualTo("kept-token");
        assertThat(secrets.internalAuthSecret()).isNotBlank();
        assertThat(EnvFile.read(file))
                .containsEntry("SOMETHING_ELSE", "kept-too")
                .containsEntry("INTERNAL_AUTH_SECRET", secrets.internalAuthSecret());
    }

    @Test
    void toStringShowsNoSecret() {
        assertThat(new StackSecrets("a", "b", "c")).hasToString("StackSecrets[<redacted>]");
    }
}
