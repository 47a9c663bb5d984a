package dev.cryptopay.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PathGuardTest {

    @Test
    void acceptsOrdinaryPaths() {
        assertThat(PathGuard.isSafe("/api/v1/payment_links")).isTrue();
        assertThat(PathGuard.isSafe("/api/v1/payment_links/pl_123")).isTrue();
        assertThat(PathGuard.isSafe("/api/v1/payment_links/a%20b")).isTrue();
        assertThat(PathGuard.isSafe("/api/v1/public/plans/")).isTrue();
    }

    @Test
    void refusesPathsAServiceCouldReadDifferently() {
        assertThat(PathGuard.isSafe("/api/v1/payment_links/../internal")).isFalse();
        assertThat(PathGuard.isSafe("/api/v1/payment_links/./x")).isFalse();
        assertThat(PathGuard.isSafe("/api/v1/payment_links/%2E%2E/internal")).isFalse();
        assertThat(PathGuard.isSafe("/api/v1/payment_links/a%2Fb")).isFalse();
        assertThat(PathGuard.isSafe("/api/v1/payment_links/a%5cb")).isFalse();
        assertThat(PathGuard.isSafe("/api/v1/payment_links//internal")).isFalse();
        assertThat(PathGuard.isSafe("/api/v1/payment_links;jsessionid=1")).isFalse();
    }
}
