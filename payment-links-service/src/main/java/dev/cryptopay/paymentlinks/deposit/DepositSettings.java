package dev.cryptopay.paymentlinks.deposit;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A merchant's deposit settings in one mode.
 *
 * @param webhookMinimumUsd the USD value a deposit must reach for its {@code wallet.deposit} event; 0 sends every one
 * @param updatedAt         when the merchant last set it; null while the defaults apply
 */
public record DepositSettings(BigDecimal webhookMinimumUsd, Instant updatedAt) {

    /** What applies until the merchant sets anything: every deposit is announced. */
    public static final DepositSettings DEFAULTS = new DepositSettings(BigDecimal.ZERO, null);

    /**
     * Whether a deposit of this USD value is announced: always when its value is unknown (it cannot be judged dust), or
     * when it reaches the minimum.
     */
    public boolean announces(BigDecimal usdValue) {
        return usdValue == null || usdValue.compareTo(webhookMinimumUsd) >= 0;
    }
}
