package dev.cryptopay.paymentlinks.paymentlink;

import java.math.BigDecimal;
import java.util.List;

/**
 * What a merchant's links received, counted exactly as each link's {@link Summary} counts it: confirmed transfers of
 * the link's asset (late ones included, unexpected assets never), less what completed refunds returned.
 *
 * @param currencies           per currency (the links' currency), in code order; a currency nothing counts in is left
 *                             out
 * @param totalAmountReceived  the USD value of all of them (each transfer as the chain watcher priced it); incomplete
 *                             when {@code unpricedTransactions} is above 0
 * @param unpricedTransactions how many of them have no USD value
 */
record ReceivedTotals(List<Currency> currencies, BigDecimal totalAmountReceived, long unpricedTransactions) {

    /**
     * @param amountReceived       in units of {@code currency}
     * @param transactions         how many transfers count in it
     * @param totalAmountReceived  their USD value; incomplete when {@code unpricedTransactions} is above 0
     * @param unpricedTransactions how many of them have no USD value
     */
    record Currency(
            String currency,
            BigDecimal amountReceived,
            long transactions,
            BigDecimal totalAmountReceived,
            long unpricedTransactions) {}

    static ReceivedTotals of(List<Currency> currencies) {
        BigDecimal usd =
                currencies.stream().map(Currency::totalAmountReceived).reduce(BigDecimal.ZERO, BigDecimal::add);
        long unpriced =
                currencies.stream().mapToLong(Currency::unpricedTransactions).sum();
        return new ReceivedTotals(currencies, usd, unpriced);
    }
}
