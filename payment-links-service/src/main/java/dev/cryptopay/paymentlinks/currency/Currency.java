package dev.cryptopay.paymentlinks.currency;

import java.util.List;
import java.util.UUID;

/**
 * A supported currency.
 *
 * @param networks the networks it can be paid on, in the order the service prefers them
 */
public record Currency(UUID id, String code, String name, List<String> networks) {

    /** The network the service chooses for new links. */
    public String defaultNetwork() {
        return networks.get(0);
    }
}
