package dev.cryptopay.gateway.signup;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Self-service sign-up.
 *
 * @param enabled whether {@code POST /api/v1/signup} exists (otherwise it is an unknown route, 404). Anyone who can
 *                reach the gateway may then create test-mode merchants (per client address, under the {@code signup}
 *                rate limit); live keys still need the operator's approval of production access. Default false.
 */
@ConfigurationProperties("gateway.signup")
public record SignupProperties(boolean enabled) {}
