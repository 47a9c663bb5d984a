package dev.cryptopay.webhooks.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code examples/java/WebhookVerifier.java}, compiled here with the JDK's compiler exactly as a merchant would copy
 * it, verifying a delivery the running service signed.
 */
class JavaReceiverExampleTest extends ReceiverExampleTestBase {

    @TempDir
    Path classes;

    /** The example's verifier for {@code secret}, whose clock reads {@code now} (epoch seconds). */
    private Verifier verifier(String secret, long now) throws Exception {
        Class<?> type = compiled();
        Constructor<?> constructor = type.getConstructor(String.class, Duration.class, Clock.class);
        Object instance = constructor.newInstance(
                secret, Duration.ofMinutes(5), Clock.fixed(Instant.ofEpochSecond(now), ZoneOffset.UTC));
        return new Verifier(
                instance, type.getMethod("verify", Map.class, byte[].class), type.getMethod("forget", String.class));
    }

    private Class<?> compiled() throws Exception {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        assertThat(compiler).as("tests run on a JDK").isNotNull();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int status = compiler.run(
                null,
                diagnostics,
                diagnostics,
                "-Xlint:all",
                "-Werror",
                "-d",
                classes.toString(),
                examples("java/WebhookVerifier.java").toString());
        assertThat(status).as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();
        URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, null);
        return loader.loadClass("WebhookVerifier");
    }

    /** Calls the compiled example; a refusal comes back as its {@code Rejected} exception's message. */
    private record Verifier(Object instance, Method verify, Method forget) {

        String verify(Map<String, String> headers, byte[] body) throws Exception {
            try {
                return "accepted " + verify.invoke(instance, headers, body);
            } catch (InvocationTargetException e) {
                assertThat(e.getCause().getClass().getName()).isEqualTo("WebhookVerifier$Rejected");
                return "rejected: " + e.getCause().getMessage();
            }
        }

        void forget(String eventId) throws Exception {
            forget.invoke(instance, eventId);
        }
    }

    @Test
    void acceptsTheServicesDeliveryOnceAndRefusesItsReplay() throws Exception {
        SignedDelivery delivery = deliver();
        Verifier verifier = verifier(delivery.secret(), delivery.timestamp());

        assertThat(verifier.verify(delivery.headers(), delivery.body())).isEqualTo("accepted " + delivery.eventId());
        assertThat(verifier.verify(delivery.headers(), delivery.body()))
                .isEqualTo("rejected: event " + delivery.eventId() + " was already accepted (replay)");

        verifier.forget(delivery.eventId());
        assertThat(verifier.verify(delivery.headers(), delivery.body()))
                .as("after forget, as when processing failed and the service retries")
                .isEqualTo("accepted " + delivery.eventId());
    }

    @Test
    void refusesATamperedBodyAnotherSecretAndAStaleOrFutureTimestamp() throws Exception {
        SignedDelivery delivery = deliver();
        long at = delivery.timestamp();

        assertThat(verifier(delivery.secret(), at).verify(delivery.headers(), delivery.tamperedBody()))
                .isEqualTo("rejected: signature does not match");
        assertThat(verifier("whsec_someoneElse", at).verify(delivery.headers(), delivery.body()))
                .isEqualTo("rejected: signature does not match");
        for (long now : List.of(at + 301, at - 301)) {
            assertThat(verifier(delivery.secret(), now).verify(delivery.headers(), delivery.body()))
                    .as("now = timestamp %+d s", now - at)
                    .isEqualTo("rejected: timestamp outside the tolerance of 300 s");
        }
        assertThat(verifier(delivery.secret(), at + 300).verify(delivery.headers(), delivery.body()))
                .as("5 minutes late is still inside the tolerance")
                .startsWith("accepted");
    }

    @Test
    void refusesMissingOrMalformedHeadersAndIgnoresHeaderCase() throws Exception {
        SignedDelivery delivery = deliver();
        Verifier verifier = verifier(delivery.secret(), delivery.timestamp());
        Map<String, String> noSignature = new java.util.HashMap<>(delivery.headers());
        noSignature.remove("X-Service-Timestamped-Signature");
        Map<String, String> notHex = new java.util.HashMap<>(delivery.headers());
        notHex.put("X-Service-Timestamped-Signature", "zz");
        Map<String, String> lowerCase = new java.util.HashMap<>();
        delivery.headers().forEach((name, value) -> lowerCase.put(name.toLowerCase(java.util.Locale.ROOT), value));

        assertThat(verifier.verify(noSignature, delivery.body()))
                .isEqualTo("rejected: missing X-Service-Timestamped-Signature");
        assertThat(verifier.verify(notHex, delivery.body()))
                .isEqualTo("rejected: malformed X-Service-Timestamped-Signature");
        assertThat(verifier.verify(lowerCase, delivery.body())).isEqualTo("accepted " + delivery.eventId());
    }
}
