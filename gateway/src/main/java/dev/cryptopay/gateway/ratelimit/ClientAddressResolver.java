package dev.cryptopay.gateway.ratelimit;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * The client's IP for per-IP limits. {@code X-Forwarded-For} is believed only when the TCP peer is a trusted proxy;
 * then the list is walked from the right, skipping trusted proxies, and the first other address is the client.
 * Anyone can write that header, so without this rule a client could pick a fresh bucket per request.
 */
public class ClientAddressResolver {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]+");

    private final List<Cidr> trusted;

    /** @param trustedProxies IPs or CIDR ranges, IPv4 or IPv6 */
    public ClientAddressResolver(List<String> trustedProxies) {
        List<Cidr> parsed = new ArrayList<>();
        for (String entry : trustedProxies) {
            parsed.add(Cidr.parse(entry.strip()));
        }
        this.trusted = List.copyOf(parsed);
    }

    public String resolve(ServerHttpRequest request) {
        InetSocketAddress remote = request.getRemoteAddress();
        InetAddress peer = remote == null ? null : remote.getAddress();
        if (peer == null) {
            return "unknown";
        }
        if (!isTrusted(peer)) {
            return peer.getHostAddress();
        }
        List<String> forwarded = request.getHeaders().getOrEmpty("X-Forwarded-For");
        List<String> hops = new ArrayList<>();
        for (String header : forwarded) {
            for (String hop : header.split(",")) {
                if (!hop.isBlank()) {
                    hops.add(hop.strip());
                }
            }
        }
        InetAddress client = peer;
        for (int i = hops.size() - 1; i >= 0; i--) {
            InetAddress hop = literal(hops.get(i));
            if (hop == null) {
                break; // garbage in the header: stop at the last address a trusted proxy vouched for
            }
            client = hop;
            if (!isTrusted(hop)) {
                break;
            }
        }
        return client.getHostAddress();
    }

    /**
     * What a per-IP bucket is keyed by: the client's IPv4 address, or the /64 network of its IPv6 address. One
     * subscriber usually holds a whole /64, so counting single IPv6 addresses would give a client 2^64 buckets.
     */
    public String bucketOf(ServerHttpRequest request) {
        String client = resolve(request);
        InetAddress address = literal(client);
        if (!(address instanceof Inet6Address)) {
            return client;
        }
        byte[] network = Arrays.copyOf(address.getAddress(), 16);
        Arrays.fill(network, 8, 16, (byte) 0);
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/64";
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // cannot happen: 16 bytes are an IPv6 address
        }
    }

    private boolean isTrusted(InetAddress address) {
        for (Cidr cidr : trusted) {
            if (cidr.contains(address)) {
                return true;
            }
        }
        return false;
    }

    /** Parses an IP literal without ever doing a DNS lookup; null when the text is not one. */
    static InetAddress literal(String text) {
        String value = text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
        boolean v4 = IPV4.matcher(value).matches();
        boolean v6 = !v4 && value.contains(":") && IPV6.matcher(value).matches();
        if (!v4 && !v6) {
            return null;
        }
        try {
            return InetAddress.getByName(value);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** An address range: base address and prefix length. */
    record Cidr(byte[] network, int prefixLength) {

        static Cidr parse(String text) {
            int slash = text.indexOf('/');
            InetAddress address = literal(slash < 0 ? text : text.substring(0, slash));
            if (address == null) {
                throw new IllegalArgumentException(
                        "gateway.trusted-proxies: '" + text + "' is not an IP or CIDR range");
            }
            int bits = address.getAddress().length * 8;
            int prefix = slash < 0 ? bits : Integer.parseInt(text.substring(slash + 1));
            if (prefix < 0 || prefix > bits) {
                throw new IllegalArgumentException("gateway.trusted-proxies: bad prefix length in '" + text + "'");
            }
            return new Cidr(address.getAddress(), prefix);
        }

        boolean contains(InetAddress address) {
            byte[] candidate = address.getAddress();
            if (candidate.length != network.length) {
                return false;
            }
            int fullBytes = prefixLength / 8;
            for (int i = 0; i < fullBytes; i++) {
                if (candidate[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefixLength % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xFF << (8 - rest)) & 0xFF;
            return (candidate[fullBytes] & mask) == (network[fullBytes] & mask);
        }
    }
}
