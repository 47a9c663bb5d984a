package dev.cryptopay.gateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;

class ClientAddressResolverTest {

    private static MockServerHttpRequest from(String peer, String... forwardedFor) {
        MockServerHttpRequest.BaseBuilder<?> builder =
                MockServerHttpRequest.get("/api/v1/public/plans").remoteAddress(new InetSocketAddress(peer, 40000));
        for (String value : forwardedFor) {
            builder.header("X-Forwarded-For", value);
        }
        return builder.build();
    }

    @Test
    void ignoresForwardedForFromAnUntrustedPeer() {
        ClientAddressResolver resolver = new ClientAddressResolver(List.of("10.0.0.0/8"));
        assertThat(resolver.resolve(from("198.51.100.9", "1.2.3.4"))).isEqualTo("198.51.100.9");
        assertThat(new ClientAddressResolver(List.of()).resolve(from("127.0.0.1", "1.2.3.4")))
                .isEqualTo("127.0.0.1");
    }

    @Test
    void takesTheFirstUntrustedHopFromTheRightBehindTrustedProxies() {
        ClientAddressResolver resolver = new ClientAddressResolver(List.of("10.0.0.0/8", "192.168.1.1"));
        // The client forged the left-most entry; the proxies appended the real address.
        assertThat(resolver.resolve(from("10.1.2.3", "6.6.6.6, 203.0.113.7, 192.168.1.1")))
                .isEqualTo("203.0.113.7");
        assertThat(resolver.resolve(from("10.1.2.3", "203.0.113.8", "10.9.9.9")))
                .isEqualTo("203.0.113.8");
    }

    @Test
    void stopsAtGarbageAndNeverResolvesHostNames() {
        ClientAddressResolver resolver = new ClientAddressResolver(List.of("10.0.0.0/8"));
        assertThat(resolver.resolve(from("10.0.0.1", "example.com"))).isEqualTo("10.0.0.1");
        assertThat(resolver.resolve(from("10.0.0.1", "2001:db8::1"))).isEqualTo("2001:db8:0:0:0:0:0:1");
    }

    @Test
    void rejectsMalformedTrustedProxyEntries() {
        assertThatThrownBy(() -> new ClientAddressResolver(List.of("proxy.internal")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ClientAddressResolver(List.of("10.0.0.0/33")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void countsIpv6ClientsPerSlash64AndIpv4ClientsPerAddress() {
        ClientAddressResolver resolver = new ClientAddressResolver(List.of("10.0.0.0/8"));

        assertThat(resolver.bucketOf(from("2001:db8:1:2:aaaa:bbbb:cccc:dddd")))
                .isEqualTo(resolver.bucketOf(from("2001:db8:1:2::1")))
                .isEqualTo("2001:db8:1:2:0:0:0:0/64");
        assertThat(resolver.bucketOf(from("2001:db8:1:3::1"))).isEqualTo("2001:db8:1:3:0:0:0:0/64");
        assertThat(resolver.bucketOf(from("203.0.113.7"))).isEqualTo("203.0.113.7");
        // Behind a trusted proxy the forwarded client is bucketed the same way.
        assertThat(resolver.bucketOf(from("10.1.2.3", "2001:db8:9:9:1:2:3:4"))).isEqualTo("2001:db8:9:9:0:0:0:0/64");
    }
}
