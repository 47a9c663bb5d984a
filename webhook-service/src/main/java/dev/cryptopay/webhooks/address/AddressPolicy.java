package dev.cryptopay.webhooks.address;

import dev.cryptopay.webhooks.config.WebhookProperties;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Which addresses webhooks may be delivered to. Merchants choose the URL, so without this check a webhook could be
 * aimed at the service's own network (SSRF): loopback, private ranges, link-local (incl. the cloud metadata address
 * 169.254.169.254), carrier-grade NAT, unique-local IPv6, multicast and unspecified addresses are refused unless
 * {@code webhooks.delivery.allow-private-addresses} is set for local development.
 */
@Component
public class AddressPolicy {

    private final boolean allowPrivate;

    @Autowired
    public AddressPolicy(WebhookProperties properties) {
        this(properties.delivery().allowPrivateAddresses());
    }

    public AddressPolicy(boolean allowPrivate) {
        this.allowPrivate = allowPrivate;
    }

    public boolean isAllowed(InetAddress address) {
        return allowPrivate || isPublic(address);
    }

    /** For a host written as an IP literal, whether it is allowed; host names are checked when resolved. */
    public boolean isAllowedLiteral(String host) {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        boolean ipLiteral = bare.matches("[0-9.]+") || bare.contains(":");
        if (!ipLiteral) {
            return allowPrivate || !bare.equalsIgnoreCase("localhost");
        }
        try {
            return isAllowed(InetAddress.getByName(bare));
        } catch (UnknownHostException e) {
            return false;
        }
    }

    static boolean isPublic(InetAddress address) {
        if (address.isLoopbackAddress()
                || address.isSiteLocalAddress()
                || address.isLinkLocalAddress()
                || address.isAnyLocalAddress()
                || address.isMulticastAddress()) {
            return false;
        }
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            int first = b[0] & 0xff;
            int second = b[1] & 0xff;
            return first != 0 // "this network"
                    && !(first == 100 && second >= 64 && second <= 127) // carrier-grade NAT
                    && !(first == 192 && second == 0 && (b[2] & 0xff) == 0) // IETF protocol assignments
                    && !(first == 198 && (second == 18 || second == 19)) // benchmarking
                    && first < 224; // multicast and reserved
        }
        if (address instanceof Inet6Address) {
            int first = b[0] & 0xff;
            if ((first & 0xfe) == 0xfc) { // fc00::/7 unique local
                return false;
            }
            boolean v4Mapped = true;
            for (int i = 0; i < 10; i++) {
                v4Mapped &= b[i] == 0;
            }
            if (v4Mapped && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
                try {
                    return isPublic(InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]}));
                } catch (UnknownHostException e) {
                    return false;
                }
            }
        }
        return true;
    }
}
