package dev.cryptopay.paymentlinks.currency;

import java.util.List;
import java.util.UUID;

/**
 * A supported currency.
 *
 * @param networks the networks it can be paid on in live mode, in the order the service prefers them
 */
public record Currency(UUID id, String code, String name, List<PaymentNetwork> networks) {

    /** The network the service chooses for new live-mode links. */
    public PaymentNetwork defaultNetwork() {
        return networks.get(0);
    }
}
