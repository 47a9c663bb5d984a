package dev.cryptopay.gateway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.gateway.GatewayApplication;
import dev.cryptopay.gateway.support.GatewayTestBase;
import dev.cryptopay.gateway.support.TestEnvironment;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The done-criterion: a merchant bootstrapped with the command line calls {@code GET /api/v1/account} with a signature
 * made by another implementation (the openssl CLI), not by our own signer.
 */
class CommandLineBootstrapTest extends GatewayTestBase {

    private static final String OPENSSL = "/usr/bin/openssl";

    @TempDir
    Path temp;

    record CliResult(int status, String out, String err) {}

    static CliResult cli(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        TestEnvironment.gatewayProperties().forEach((name, value) -> {
            if (name.startsWith("spring.")) {
                all.add("--" + name + "=" + value);
            }
        });
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = AdminCli.run(
                GatewayApplication.class,
                all.toArray(String[]::new),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new CliResult(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void merchantCreatedOnTheCommandLineCallsAccountWithAnOpensslSignature() throws Exception {
        File openssl = new File(OPENSSL);
        assertThat(openssl.canExecute())
                .as("this test needs the openssl 3 CLI at " + OPENSSL + " (apt-get install openssl); it is not skipped")
                .isTrue();

        CliResult created = cli("create-merchant", "--name", "Acme Corp", "--email", "ops@acme.test", "--mode", "test");
        assertThat(created.status()).as(created.err()).isZero();
        String merchantId = group(created.out(), "merchant_id:\\s+(\\S+)");
        String apiKey = group(created.out(), "api_key:\\s+(mk_test_[A-Z2-7]{32})");
        String pem = group(created.out(), "(-----BEGIN PRIVATE KEY-----[\\s\\S]+?-----END PRIVATE KEY-----)");
        assertThat(group(created.out(), "(Ed25519:[A-Za-z0-9+/=]+)")).isNotBlank();

        Path keyFile = temp.resolve("merchant-key.pem");
        Files.writeString(keyFile, pem + "\n");
        String timestamp = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        Path message = temp.resolve("message.txt");
        Files.write(message, ("GET" + "/account" + timestamp).getBytes(StandardCharsets.UTF_8));
        byte[] signature = opensslSign(keyFile, message);
        assertThat(signature).hasSize(64);

        byte[] body = client.get()
                .uri(baseUrl() + "/api/v1/account")
                .header("X-API-Key", apiKey)
                .header("X-API-Signature", Base64.getEncoder().encodeToString(signature))
                .header("X-API-Timestamp", timestamp)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody();
        JsonNode account = json(body);
        assertThat(account.get("merchant_id").stringValue()).isEqualTo(merchantId);
        assertThat(account.get("name").stringValue()).isEqualTo("Acme Corp");
        assertThat(account.get("email").stringValue()).isEqualTo("ops@acme.test");
        assertThat(account.get("api_key_prefix").stringValue()).isEqualTo(apiKey.substring(0, 12));
    }

    @Test
    void createsFurtherKeysListsAndRevokesThem() throws Exception {
        CliResult created = cli("create-merchant", "--name", "Beta", "--email", "ops@beta.test");
        assertThat(created.status()).as(created.err()).isZero();
        String merchantId = group(created.out(), "merchant_id:\\s+(\\S+)");

        CliResult live = cli("create-key", "--merchant", merchantId, "--mode", "live");
        assertThat(live.status()).as(live.err()).isZero();
        String liveKey = group(live.out(), "api_key:\\s+(mk_live_[A-Z2-7]{32})");

        CliResult listed = cli("list-keys", "--merchant", merchantId);
        assertThat(listed.status()).isZero();
        assertThat(listed.out()).contains(liveKey.substring(0, 12)).doesNotContain(liveKey);

        CliResult revoked = cli("revoke-key", "--key", liveKey);
        assertThat(revoked.status()).as(revoked.err()).isZero();
        assertThat(cli("list-keys", "--merchant", merchantId).out()).contains("revoked");
    }

    @Test
    void createMerchantPrintsAPublishableKeyAndFurtherOnesAreIssuedListedAndRevoked() {
        CliResult created = cli("create-merchant", "--name", "Gamma", "--email", "ops@gamma.test", "--mode", "live");
        assertThat(created.status()).as(created.err()).isZero();
        String merchantId = group(created.out(), "merchant_id:\\s+(\\S+)");
        String first = group(created.out(), "publishable_key:\\s+(pk_live_[A-Z2-7]{32})");
        // It works as merchant_key right away.
        client.post()
                .uri(baseUrl() + "/api/v1/public/subscriptions/link/payment")
                .bodyValue("{\"merchant_key\":\"" + first + "\"}")
                .exchange()
                .expectStatus()
                .isOk();

        CliResult issued = cli("create-publishable-key", "--merchant", merchantId, "--mode", "test");
        assertThat(issued.status()).as(issued.err()).isZero();
        String second = group(issued.out(), "publishable_key:\\s+(pk_test_[A-Z2-7]{32})");

        CliResult revoked = cli("revoke-key", "--key", first);
        assertThat(revoked.status()).as(revoked.err()).isZero();
        String listed = cli("list-keys", "--merchant", merchantId).out();
        assertThat(listed).containsPattern(first + "\\s+live\\s+revoked");
        assertThat(listed).containsPattern(second + "\\s+test\\s+active");
        assertThat(cli("create-publishable-key", "--mode", "test").status()).isEqualTo(AdminCli.USAGE);
    }

    @Test
    void exitsWithUsageErrorOrRefusal() {
        assertThat(cli().status()).isEqualTo(AdminCli.USAGE);
        assertThat(cli("create-merchant", "--name", "NoEmail").status()).isEqualTo(AdminCli.USAGE);
        CliResult invalid = cli("create-merchant", "--name", "X", "--email", "nope");
        assertThat(invalid.status()).isEqualTo(AdminCli.FAILED);
        assertThat(invalid.err()).contains("email");
        assertThat(cli("revoke-key", "--key", "mk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
                        .status())
                .isEqualTo(AdminCli.FAILED);
    }

    /** {@code java -jar gateway.jar admin …}: the server's main hands {@code admin} arguments to the command line. */
    @Test
    void theServersMainRunsTheCommandLine() throws IOException, InterruptedException {
        Process process = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        GatewayApplication.class.getName(),
                        "admin",
                        "list-keys")
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(process.exitValue()).as(output).isEqualTo(AdminCli.USAGE);
        assertThat(output).contains("list-keys needs --merchant", "Usage: java -jar gateway.jar admin");
    }

    private static byte[] opensslSign(Path keyFile, Path message) throws IOException, InterruptedException {
        Path signatureFile = keyFile.resolveSibling("signature.bin");
        Process process = new ProcessBuilder(
                        OPENSSL,
                        "pkeyutl",
                        "-sign",
                        "-rawin",
                        "-inkey",
                        keyFile.toString(),
                        "-in",
                        message.toString(),
                        "-out",
                        signatureFile.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("openssl failed: " + output).isZero();
        return Files.readAllBytes(signatureFile);
    }

    private static String group(String text, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(text);
        assertThat(matcher.find()).as("output contains " + regex + ":\n" + text).isTrue();
        return matcher.group(1);
    }
}
