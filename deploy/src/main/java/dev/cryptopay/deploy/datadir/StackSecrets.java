package dev.cryptopay.deploy.datadir;

import dev.cryptopay.deploy.EnvFile;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;

/**
 * The secrets the services share, random on the first run and kept in {@code secrets.env} afterwards, so stored
 * webhook secrets stay readable and the admin token stays the same across restarts. A file from before a secret
 * existed gets it added.
 *
 * @param internalAuthSecret   the gateway's secret as internal caller: it signs {@code X-Internal-Auth}, the services
 *                             check it
 * @param chainWatcherSecret   the chain watcher's own secret as internal caller: it signs its reports,
 *                             payment-links-service checks it
 * @param adminToken           the Bearer token of the gateway's admin API
 * @param webhookEncryptionKey the webhook-service's key for endpoint secrets (Base64 of 32 bytes)
 */
public record StackSecrets(
        String internalAuthSecret, String chainWatcherSecret, String adminToken, String webhookEncryptionKey) {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** Reads the file, adds whichever secret is missing (writing the file only then) and returns all four. */
    public static StackSecrets loadOrCreate(Path file) {
        Map<String, String> values = EnvFile.read(file);
        boolean changed = false;
        changed |= values.putIfAbsent("INTERNAL_AUTH_SECRET", randomBase64Url(48)) == null;
        changed |= values.putIfAbsent("CHAIN_WATCHER_INTERNAL_AUTH_SECRET", randomBase64Url(48)) == null;
        changed |= values.putIfAbsent("GATEWAY_ADMIN_TOKEN", randomBase64Url(32)) == null;
        changed |= values.putIfAbsent(
                        "WEBHOOK_SECRET_ENCRYPTION_KEY", Base64.getEncoder().encodeToString(randomBytes(32)))
                == null;
        if (changed) {
            EnvFile.write(file, values);
        }
        return new StackSecrets(
                values.get("INTERNAL_AUTH_SECRET"),
                values.get("CHAIN_WATCHER_INTERNAL_AUTH_SECRET"),
                values.get("GATEWAY_ADMIN_TOKEN"),
                values.get("WEBHOOK_SECRET_ENCRYPTION_KEY"));
    }

    /** Never shows the secrets. */
    @Override
    public String toString() {
        return "StackSecrets[<redacted>]";
    }

    private static byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    private static String randomBase64Url(int bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(randomBytes(bytes));
    }
}
