package dev.cryptopay.deploychecks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The internal callers' Ed25519 keys: a caller (the gateway, chain-watcher) alone holds its private key; a service
 * holds the public keys of the callers it accepts and no other key. Checked against what each service reads, in
 * docker-compose.yml and in the Kubernetes Secrets.
 */
class InternalKeysTest {

    static final List<String> SERVICES = Repo.SERVICES;

    /** The service an internal caller is: {@code CHAIN_WATCHER} → {@code chain-watcher}. */
    static String service(String caller) {
        return caller.toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The internal callers' key variables among {@code names}. */
    static Set<String> keyVariables(Set<String> names) {
        Set<String> keys = new TreeSet<>();
        names.stream()
                .filter(name ->
                        ServiceConfiguration.PRIVATE_KEY_VARIABLE.matcher(name).matches()
                                || ServiceConfiguration.PUBLIC_KEYS_VARIABLE
                                        .matcher(name)
                                        .matches())
                .forEach(keys::add);
        return keys;
    }

    @Test
    void eachCallerSignsWithItsOwnPrivateKeyAndEachReceiverHoldsOnlyPublicKeys() {
        assertThat(ServiceConfiguration.of("gateway").internalKeyVariables())
                .as("the gateway signs what it forwards and checks no token")
                .containsExactly("GATEWAY_INTERNAL_AUTH_PRIVATE_KEY");
        assertThat(ServiceConfiguration.of("chain-watcher").internalKeyVariables())
                .as("chain-watcher signs its reports and checks no token: no key of the gateway's")
                .containsExactly("CHAIN_WATCHER_INTERNAL_AUTH_PRIVATE_KEY");
        for (String service : List.of("payment-links-service", "subscriptions-service")) {
            assertThat(ServiceConfiguration.of(service).internalKeyVariables())
                    .as(service + " takes the gateway's requests and the chain watcher's reports")
                    .containsExactly("CHAIN_WATCHER_INTERNAL_AUTH_PUBLIC_KEYS", "GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS");
        }
        assertThat(ServiceConfiguration.of("webhook-service").internalKeyVariables())
                .as("webhook-service takes the gateway's requests only")
                .containsExactly("GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS");
        assertThat(ServiceConfiguration.of("notification-service").internalKeyVariables())
                .as("notification-service will take the gateway's requests only (its merchant routes are to come)")
                .containsExactly("GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS");
        for (String service : SERVICES) {
            for (String variable : ServiceConfiguration.of(service).internalPrivateKeyVariables()) {
                assertThat(service(ServiceConfiguration.caller(variable)))
                        .as(variable + " is read by its own caller only")
                        .isEqualTo(service);
            }
            for (String variable : ServiceConfiguration.of(service).internalPublicKeyVariables()) {
                assertThat(SERVICES)
                        .as(variable + ": its caller is one of ours")
                        .contains(service(ServiceConfiguration.caller(variable)));
            }
        }
    }

    @Test
    void composeGivesEachServiceTheKeysItReadsAndNoOther() {
        for (String service : SERVICES) {
            assertThat(keyVariables(ComposeFileTest.env(service).keySet()))
                    .as(service + ": the internal callers' keys it signs or checks with")
                    .isEqualTo(ServiceConfiguration.of(service).internalKeyVariables());
        }
    }

    @Test
    void composeGivesEveryReceiverThePublicKeyOfItsCallersPrivateKey() {
        Map<String, String> values = new HashMap<>();
        for (String service : SERVICES) {
            for (String variable : keyVariables(ComposeFileTest.env(service).keySet())) {
                String value = ComposeFileTest.env(service).get(variable);
                assertThat(values.putIfAbsent(variable, value))
                        .as(variable + " has one value in every service")
                        .isIn(null, value);
            }
        }
        Set<String> publicKeys = new TreeSet<>();
        for (String caller : List.of("GATEWAY", "CHAIN_WATCHER")) {
            PrivateKey privateKey = privateKey(values.get(caller + "_INTERNAL_AUTH_PRIVATE_KEY"));
            List<String> keys =
                    List.of(values.get(caller + "_INTERNAL_AUTH_PUBLIC_KEYS").split(","));
            assertThat(keys)
                    .as(caller + ": one public key, or two while it changes")
                    .hasSizeBetween(1, 2);
            assertThat(keys.stream().map(String::strip))
                    .as(caller + ": the receivers hold the public key of the caller's private key")
                    .anySatisfy(key ->
                            assertThat(isPair(privateKey, publicKey(key))).isTrue());
            keys.forEach(key -> assertThat(publicKeys.add(key.strip()))
                    .as("every caller has a key pair of its own")
                    .isTrue());
        }
    }

    @Test
    void noPrivateKeyIsGivenToAnyServiceButItsCaller() {
        for (String variable :
                List.of("GATEWAY_INTERNAL_AUTH_PRIVATE_KEY", "CHAIN_WATCHER_INTERNAL_AUTH_PRIVATE_KEY")) {
            String owner = service(ServiceConfiguration.caller(variable));
            String privateKey = ComposeFileTest.env(owner).get(variable);
            String body = privateKey.replaceFirst("^Ed25519:", "");
            for (String container : ComposeFileTest.CONTAINERS.keySet()) {
                if (!container.equals(owner)) {
                    assertThat(ComposeFileTest.env(container).values())
                            .as(container + " holds " + owner + "'s private key, under any name")
                            .noneMatch(value -> value.contains(body));
                }
            }
            for (String service : SERVICES) {
                if (!service.equals(owner)) {
                    assertThat(KustomizeTest.secretKeys(service))
                            .as(service + "-secrets holds " + owner + "'s private key")
                            .doesNotContain(variable);
                }
            }
        }
    }

    @Test
    void eachKubernetesSecretHoldsTheKeysOfItsServiceAndNoOther() {
        for (String service : SERVICES) {
            Set<String> reads = ServiceConfiguration.of(service).internalKeyVariables();
            assertThat(reads).as(service + " signs or checks internal tokens").isNotEmpty();
            assertThat(keyVariables(KustomizeTest.secretKeys(service)))
                    .as(service + "-secrets")
                    .isEqualTo(reads);
        }
    }

    @Test
    void theConfigMapsHoldNoKeyAndThePublicKeysLiveInTheSecretsBesideThePrivateOnes() {
        for (Path file : Repo.walk(KustomizeTest.K8S, "kustomization.yaml")) {
            for (String service : SERVICES) {
                assertThat(keyVariables(KustomizeTest.literals(
                                        KustomizeTest.kustomization(file.getParent()), service + "-config")
                                .keySet()))
                        .as(Repo.relative(file) + ": the internal callers' keys are in " + service + "-secrets")
                        .isEmpty();
            }
        }
    }

    /**
     * The deployment files name only the four key variables (the shared secrets of before are gone, and no typo
     * slips in) and no {@code …secret} setting of internal-auth.
     */
    @Test
    void theDeploymentFilesNameOnlyTheKeyVariables() {
        Set<String> known = Set.of(
                "GATEWAY_INTERNAL_AUTH_PRIVATE_KEY",
                "GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS",
                "CHAIN_WATCHER_INTERNAL_AUTH_PRIVATE_KEY",
                "CHAIN_WATCHER_INTERNAL_AUTH_PUBLIC_KEYS",
                // *_INTERNAL_AUTH_PRIVATE_KEY, *_INTERNAL_AUTH_PUBLIC_KEYS in prose
                "_INTERNAL_AUTH_PRIVATE_KEY",
                "_INTERNAL_AUTH_PUBLIC_KEYS");
        Pattern variable = Pattern.compile("[A-Z0-9_]*INTERNAL_AUTH_[A-Z0-9_]*");
        Pattern secretSetting = Pattern.compile("internal-auth[a-z.-]*\\.secret\\b");
        List<Path> files = Stream.of(
                        Stream.of(
                                Repo.path("docker-compose.yml"),
                                Repo.path("docs/deployment.md"),
                                Repo.path("deploy/README.md")),
                        Repo.walk(KustomizeTest.K8S, "").stream(),
                        Repo.walk(Repo.path("docs/runbooks"), ".md").stream())
                .flatMap(paths -> paths)
                .toList();
        for (Path file : files) {
            String text = Repo.read(file);
            Matcher matcher = variable.matcher(text);
            while (matcher.find()) {
                assertThat(known)
                        .as(Repo.relative(file) + " names " + matcher.group())
                        .contains(matcher.group());
            }
            assertThat(secretSetting.matcher(text).find())
                    .as(Repo.relative(file) + " names an internal-auth secret setting")
                    .isFalse();
        }
    }

    /** A private key in the {@code Ed25519:<Base64 PKCS#8 DER>} form. */
    static PrivateKey privateKey(String text) {
        assertThat(text)
                .as("a private key in the Ed25519:<Base64 PKCS#8 DER> form")
                .startsWith("Ed25519:");
        byte[] der = Base64.getDecoder().decode(text.substring("Ed25519:".length()));
        try {
            return KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (GeneralSecurityException e) {
            throw new AssertionError("not an Ed25519 private key", e);
        }
    }

    /** A public key as Base64 of its SPKI DER. */
    static PublicKey publicKey(String base64) {
        try {
            return KeyFactory.getInstance("Ed25519")
                    .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
        } catch (GeneralSecurityException e) {
            throw new AssertionError("not an Ed25519 public key: " + base64, e);
        }
    }

    /** Whether the public key verifies what the private key signs. */
    static boolean isPair(PrivateKey privateKey, PublicKey publicKey) {
        try {
            byte[] message = "internal-auth key pair".getBytes(StandardCharsets.UTF_8);
            Signature signer = Signature.getInstance("Ed25519");
            signer.initSign(privateKey);
            signer.update(message);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance("Ed25519");
            verifier.initVerify(publicKey);
            verifier.update(message);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            throw new AssertionError(e);
        }
    }
}
