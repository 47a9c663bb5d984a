package dev.cryptopay.webhooks.delivery;

import java.net.UnknownHostException;

/** A webhook host resolved to an address deliveries must not reach. */
public class RefusedAddressException extends UnknownHostException {

    public RefusedAddressException(String host) {
        super("Refused to deliver to " + host + ": it resolves to a private, loopback or link-local address");
    }
}
