package dev.cryptopay.deploy;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.keys.SigningKey;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The sandbox merchant: created with a test-mode Ed25519 key and a test-mode publishable key through the admin API on
 * the first run, saved in {@code sandbox.env} and {@code sandbox-key.pem}, and reused afterwards as long as the
 * gateway accepts its key (checked with a signed {@code GET /account}). A key or merchant the database no longer
 * knows is replaced; so is a publishable key that is no longer active (or missing, in a data directory from before
 * publishable keys).
 */
final class SandboxMerchant {

    private SandboxMerchant() {}

    private static final String NAME = "Local sandbox";
    private static final String EMAIL = "sandbox@example.com";

    /** The saved merchant when its key still works, otherwise a new key or merchant, saved. */
    static SandboxCredentials ensure(StackFiles layout, String baseUrl, AdminClient admin, StackConsole console) {
        Path file = layout.sandboxFile;
        Path pem = layout.sandboxKeyPem;
        Map<String, String> saved = EnvFile.read(file);
        SandboxCredentials result;
        if (saved.containsKey("MERCHANT_ID") && saved.containsKey("API_KEY") && saved.containsKey("PRIVATE_KEY")) {
            SandboxCredentials previous = new SandboxCredentials(
                    saved.get("MERCHANT_ID"),
                    saved.get("API_KEY"),
                    null,
                    saved.get("PRIVATE_KEY"),
                    null,
                    pem,
                    Mode.TEST);
            HttpResponse<String> account = new SignedClient(baseUrl, previous).get("/account");
            if (account.statusCode() == 200) {
                console.say("sandbox merchant " + previous.merchantId() + " reused");
                if (!Files.exists(pem)) {
                    EnvFile.writePrivate(
                            pem, SigningKey.parse(previous.privateKey()).toPem());
                }
                SandboxCredentials reused =
                        previous.withPublishableKey(publishableKey(admin, previous.merchantId(), saved));
                save(file, reused);
                return reused;
            }
            if (account.statusCode() != 401) {
                throw new StackStartException("The gateway answered GET /api/v1/account with HTTP "
                        + account.statusCode() + " for the saved sandbox key: " + account.body() + ". See "
                        + DisplayPath.of(layout.serviceLog(StackService.GATEWAY)) + ".");
            }
            if (admin.merchantExists(previous.merchantId())) {
                console.say("the saved sandbox key is no longer accepted; creating a new test key for merchant "
                        + previous.merchantId());
                result = admin.createKey(previous.merchantId(), Mode.TEST);
            } else {
                console.say("the saved sandbox merchant is not in the database (was it reset?); creating a new one");
                result = admin.createKey(admin.createMerchant(NAME, EMAIL), Mode.TEST);
            }
        } else {
            result = admin.createKey(admin.createMerchant(NAME, EMAIL), Mode.TEST);
            console.say("sandbox merchant " + result.merchantId() + " created");
        }
        result = result.withPublishableKey(publishableKey(admin, result.merchantId(), saved));
        EnvFile.writePrivate(pem, result.privateKeyPem());
        save(file, result);
        return new SandboxCredentials(
                result.merchantId(),
                result.apiKey(),
                result.publishableKey(),
                result.privateKey(),
                result.privateKeyPem(),
                pem,
                Mode.TEST);
    }

    private static String publishableKey(AdminClient admin, String merchantId, Map<String, String> saved) {
        String previous = saved.get("PUBLISHABLE_KEY");
        if (previous != null
                && admin.activePublishableKeys(merchantId, Mode.TEST).contains(previous)) {
            return previous;
        }
        return admin.createPublishableKey(merchantId, Mode.TEST);
    }

    private static void save(Path file, SandboxCredentials credentials) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("MERCHANT_ID", credentials.merchantId());
        values.put("API_KEY", credentials.apiKey());
        values.put("PUBLISHABLE_KEY", credentials.publishableKey());
        values.put("PRIVATE_KEY", credentials.privateKey());
        EnvFile.write(file, values);
    }
}
