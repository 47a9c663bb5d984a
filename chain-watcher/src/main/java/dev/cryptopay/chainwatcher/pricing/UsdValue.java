package dev.cryptopay.chainwatcher.pricing;

import java.math.BigDecimal;

/**
 * What an amount was worth in US dollars, and how that is known.
 *
 * @param usd    the value, rounded to cents' hundred-thousandths (8 decimals); zero when {@code source} is unknown
 * @param source {@code price_feed} (read from the asset's feed), {@code stablecoin} (a dollar stablecoin without a
 *               feed, one dollar a unit) or {@code unknown} (no feed, or the feed's answer was unusable: not positive
 *               or older than the network's price-max-age)
 */
public record UsdValue(BigDecimal usd, String source) {

    public static final String PRICE_FEED = "price_feed";
    public static final String STABLECOIN = "stablecoin";
    public static final String UNKNOWN = "unknown";

    static UsdValue unknown() {
        return new UsdValue(BigDecimal.ZERO, UNKNOWN);
    }

    public boolean known() {
        return !source.equals(UNKNOWN);
    }
}
