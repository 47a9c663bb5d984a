package dev.cryptopay.auth.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.SecureRandom;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class WebhookSecretTest {

    @Test
    void generatedSecretIsPrefixedBase64OfThirtyTwoBytes() {
        String secret = WebhookSecret.generate(new SecureRandom());

        assertThat(secret).startsWith("whsec_").hasSize("whsec_".length() + 44);
        assertThat(Base64.getDecoder().decode(secret.substring("whsec_".length())))
                .hasSize(32);
        assertThat(WebhookSecret.isWellFormed(secret)).isTrue();
    }

    @Test
    void generatedSecretsDiffer() {
        SecureRandom random = new SecureRandom();

        assertThat(WebhookSecret.generate(random)).isNotEqualTo(WebhookSecret.generate(random));
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(
            strings = {
                "whsec_",
                "xkNXECjXtWZXWi862MqtFv53cTYP2BwU445Jomr85n8=", // no prefix
                "WHSEC_xkNXECjXtWZXWi862MqtFv53cTYP2BwU445Jomr85n8=", // upper-case prefix
                "whsec_xkNXECjXtWZXWi862MqtFv53cTYP2BwU445Jomr85n8", // missing padding
                "whsec_xkNXECjXtWZXWi862MqtFv53cTYP2BwU445Jomr85n9=", // non-canonical last char
                "whsec_xkNXECjXtWZXWi862MqtFv53cTYP2BwU445Jomr85g==", // 31 bytes
                "whsec_xkNXECjXtWZXWi862MqtFv53cTYP2BwU445Jomr85n8=\n", // trailing newline
                "whsec_xkNXECjXtWZXWi862MqtFv53cTYP2BwU445Jomr_5n8=", // base64url alphabet
            })
    void rejectsMalformedSecrets(String text) {
        assertThat(WebhookSecret.isWellFormed(text)).isFalse();
    }

    @Test
    void acceptsCanonicalSecret() {
        assertThat(WebhookSecret.isWellFormed("whsec_xkNXECjXtWZXWi862MqtFv53cTYP2BwU445Jomr85n8="))
                .isTrue();
    }
}
