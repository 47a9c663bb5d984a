package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The sandbox merchant's publishable key on later starts: kept while it is active, replaced (and saved) when it was
 * revoked or when {@code sandbox.env} predates publishable keys. Runs {@link AdminClient#ensureSandboxMerchant} against a
 * running stack (without the dev chain), as a restart would.
 */
class SandboxMerchantTest {

    private static LocalStack stack;

    @BeforeAll
    static void startStack() {
        StackOptions options = StackOptions.forTests();
        options.out = new PrintStream(OutputStream.nullOutputStream());
        stack = LocalStack.start(options);
    }

    @AfterAll
    static void stopStack() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void keepsAnActivePublishableKeyAndReplacesARevokedOrMissingOne() throws Exception {
        AdminClient admin = new AdminClient(stack.adminUrl(), stack.adminToken());
        StackFiles files = new StackFiles(stack.files.root);
        StackConsole console = new StackConsole(new PrintStream(OutputStream.nullOutputStream()));
        Path saved = new StackFiles(stack.files.root).sandboxFile;
        SandboxCredentials started = stack.credentials();
        assertThat(started.publishableKey()).matches("pk_test_[A-Z2-7]{32}");

        SandboxCredentials kept = admin.ensureSandboxMerchant(files, stack.baseUrl(), console);
        assertThat(kept.apiKey()).isEqualTo(started.apiKey());
        assertThat(kept.publishableKey()).isEqualTo(started.publishableKey());

        revoke(started.publishableKey());
        SandboxCredentials replaced = admin.ensureSandboxMerchant(files, stack.baseUrl(), console);
        assertThat(replaced.apiKey()).isEqualTo(started.apiKey());
        assertThat(replaced.publishableKey()).matches("pk_test_[A-Z2-7]{32}").isNotEqualTo(started.publishableKey());
        assertThat(admin.activePublishableKeys(started.merchantId(), Mode.TEST))
                .containsExactly(replaced.publishableKey());
        assertThat(EnvFile.read(saved)).containsEntry("PUBLISHABLE_KEY", replaced.publishableKey());

        Map<String, String> older = new LinkedHashMap<>(EnvFile.read(saved));
        older.remove("PUBLISHABLE_KEY");
        EnvFile.write(saved, older);
        SandboxCredentials upgraded = admin.ensureSandboxMerchant(files, stack.baseUrl(), console);
        assertThat(upgraded.publishableKey()).matches("pk_test_[A-Z2-7]{32}").isNotEqualTo(replaced.publishableKey());
        assertThat(EnvFile.read(saved)).containsEntry("PUBLISHABLE_KEY", upgraded.publishableKey());
    }

    private static void revoke(String key) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(stack.adminUrl() + "/admin/keys/" + key))
                                .header("Authorization", "Bearer " + stack.adminToken())
                                .DELETE()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(204);
    }
}
