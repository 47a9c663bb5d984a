package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.service.money.Amounts;
import java.math.BigDecimal;

/**
 * Figures of a link's recorded transactions. Amounts count confirmed transfers of the link's asset, late ones
 * included, less what completed refunds returned (unexpected assets never count); payers are the distinct paying
 * addresses of those transfers.
 *
 * @param totalAmountReceived  the value in {@code fiatCurrency} of those transfers when they were confirmed (as the
 *                             chain watcher priced them; a partly refunded one in proportion); incomplete when
 *                             {@code unpricedTransactions} is above 0
 * @param fiatCurrency         the currency of {@code totalAmountReceived}: always {@value #FIAT_CURRENCY}
 * @param unpricedTransactions how many of those transfers have no value in {@code fiatCurrency} (no price feed for
 *                             their asset when they were confirmed): they are missing from {@code totalAmountReceived}
 */
public record Summary(
        long totalPayers,
        long totalTransactions,
        BigDecimal totalAmountReceived,
        String fiatCurrency,
        long unpricedTransactions,
        BigDecimal totalAmountReceivedCrypto,
        long pendingTransactions,
        long completedTransactions,
        long failedTransactions) {

    /** The currency chain-watcher prices confirmed transfers in ({@code fiat_amount}). */
    public static final String FIAT_CURRENCY = "USD";

    /*
     * The SQL of the figures, over link_transaction rows: shared by a link's summary and the merchant's totals
     * (GET /payment_links/totals), so both count exactly the same transfers the same way.
     */

    /** The transfers amounts count: confirmed (not all refunded) transfers of the link's asset, late ones included. */
    static final String COUNTED = "status = 'confirmed' AND NOT unexpected_asset";

    /** Their USD value; a partly refunded transfer in proportion. */
    static final String FIAT_SQL =
            "round(coalesce(sum(fiat_amount * (crypto_amount - refunded_amount) / crypto_amount) " + "FILTER (WHERE "
                    + COUNTED + " AND crypto_amount > 0), 0), 18)";

    /** How many of them have no USD value. */
    static final String UNPRICED_SQL = "count(*) FILTER (WHERE " + COUNTED + " AND fiat_amount IS NULL)";

    /** What they brought less what completed refunds returned, in the link's currency. */
    static final String CRYPTO_SQL = "coalesce(sum(crypto_amount - refunded_amount) FILTER (WHERE " + COUNTED + "), 0)";

    /** The same figures with amounts as the interface renders them (no trailing zeros of the NUMERIC column). */
    Summary rendered() {
        return new Summary(
                totalPayers,
                totalTransactions,
                Amounts.jsonNumber(totalAmountReceived),
                fiatCurrency,
                unpricedTransactions,
                Amounts.jsonNumber(totalAmountReceivedCrypto),
                pendingTransactions,
                completedTransactions,
                failedTransactions);
    }
}
