package dev.cryptopay.service.production;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The repository's own development secrets are on the list the production profile refuses. */
class DevelopmentSecretsTest {

    /** The settings with committed development values: the internal callers' key pairs, the admin token, the key. */
    static final String SECRETS = "GATEWAY_INTERNAL_AUTH_PRIVATE_KEY|GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS"
            + "|CHAIN_WATCHER_INTERNAL_AUTH_PRIVATE_KEY|CHAIN_WATCHER_INTERNAL_AUTH_PUBLIC_KEYS|GATEWAY_ADMIN_TOKEN"
            + "|WEBHOOK_SECRET_ENCRYPTION_KEY";

    static final Pattern COMPOSE_DEFAULT = Pattern.compile("\\$\\{(" + SECRETS + "):-([^}]+)}");

    @Test
    void everySecretDefaultOfDockerComposeIsKnown() throws IOException {
        String compose = Files.readString(Path.of("..", "docker-compose.yml"));
        Matcher matcher = COMPOSE_DEFAULT.matcher(compose);
        List<String> defaults = new ArrayList<>();
        while (matcher.find()) {
            defaults.add(matcher.group(2));
        }
        assertThat(defaults).hasSize(6);
        assertThat(defaults.stream().map(DevelopmentSecrets::keyBody)).allMatch(DevelopmentSecrets.KNOWN::contains);
    }

    @Test
    void everyPlaceholderOfTheSecretExamplesIsRefused() throws IOException {
        List<String> values = new ArrayList<>();
        try (var files = Files.walk(Path.of("..", "deploy", "k8s", "base"))) {
            for (Path file : files.filter(f -> f.endsWith("secret.env.example")).toList()) {
                Files.readAllLines(file).stream()
                        .filter(line -> line.matches("(" + SECRETS + ")=.*"))
                        .forEach(line -> values.add(line.substring(line.indexOf('=') + 1)));
            }
        }
        assertThat(values).hasSizeGreaterThanOrEqualTo(8);
        assertThat(values).allMatch(DevelopmentSecrets::isDevelopmentValue);
    }

    @Test
    void randomSecretsAreNotDevelopmentValues() {
        assertThat(DevelopmentSecrets.isDevelopmentValue("Zq0b9Xr4Lm2Vt7Pk1Hs8Jd3Wf6Nc5Ya0Ue9Ri4Oq"))
                .isFalse();
        assertThat(DevelopmentSecrets.isDevelopmentValue("3q2+7wABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGho="))
                .isFalse();
        assertThat(DevelopmentSecrets.isDevelopmentValue(
                        "Ed25519:MC4CAQAwBQYDK2VwBCIEIHBhc3N3b3JkLW9mLWEtcmVhbC1rZXktMDEyMzQ1Njc="))
                .isFalse();
    }

    @Test
    void knowsACommittedKeyInEachOfItsForms() {
        String body = "MC4CAQAwBQYDK2VwBCIEIMng4EP39qBSiHEWOJkfkWbJjjaq4mxLf/L6N4yovBYY";
        assertThat(List.of(
                        body,
                        "Ed25519:" + body,
                        "-----BEGIN PRIVATE KEY-----\n" + body + "\n-----END PRIVATE KEY-----\n",
                        "-----BEGIN PRIVATE KEY-----\\n" + body + "\\n-----END PRIVATE KEY-----"))
                .allMatch(DevelopmentSecrets::isDevelopmentValue);
    }
}
