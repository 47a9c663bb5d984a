package dev.cryptopay.paymentlinks.paymentlink;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cryptopay.service.money.Amounts;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * One transfer in {@code GET /payment_links/transactions}: the fields of a link's {@code transactions} entry, with the
 * link it was sent to ({@code payment_link_id}, {@code payment_name}) and when its record last changed
 * ({@code updated_at}).
 */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
record MerchantTransferResponse(
        String id,
        String paymentLinkId,
        String paymentName,
        String txHash,
        int logIndex,
        String network,
        String tokenContract,
        String asset,
        String payerAddress,
        BigDecimal cryptoAmount,
        @JsonInclude(JsonInclude.Include.ALWAYS) BigDecimal fiatAmount,
        BigDecimal refundedAmount,
        String status,
        int confirmations,
        Integer requiredConfirmations,
        boolean late,
        boolean countedAsUse,
        boolean unexpectedAsset,
        Instant createdAt,
        Instant updatedAt) {

    static MerchantTransferResponse of(MerchantTransfer transfer) {
        RecordedTransaction recorded = transfer.transaction();
        return new MerchantTransferResponse(
                recorded.id().toString(),
                transfer.linkId().toString(),
                transfer.linkName(),
                recorded.txHash(),
                recorded.logIndex(),
                recorded.network(),
                recorded.tokenContract(),
                recorded.asset(),
                recorded.payerAddress(),
                Amounts.jsonNumber(recorded.cryptoAmount()),
                Amounts.jsonNumber(recorded.fiatAmount()),
                Amounts.jsonNumber(recorded.refundedAmount()),
                recorded.status(),
                recorded.confirmations(),
                recorded.requiredConfirmations(),
                recorded.late(),
                recorded.countedAsUse(),
                recorded.unexpectedAsset(),
                recorded.createdAt(),
                transfer.updatedAt());
    }

    /** The filters a list was answered with, echoed as {@code filters} (absent ones left out). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Filters(String status, Boolean late, Boolean counted, Instant createdFrom, Instant createdTo) {
        static Filters of(MerchantTransferQuery query) {
            return new Filters(query.status(), query.late(), query.counted(), query.createdFrom(), query.createdTo());
        }
    }

    /** The answer of {@code GET /payment_links/totals}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Totals(
            List<CurrencyTotal> currencies,
            BigDecimal totalAmountReceived,
            String fiatCurrency,
            long unpricedTransactions,
            Instant createdFrom,
            Instant createdTo) {

        static Totals of(ReceivedTotals totals, Instant createdFrom, Instant createdTo) {
            return new Totals(
                    totals.currencies().stream()
                            .map(currency -> new CurrencyTotal(
                                    currency.currency(),
                                    Amounts.jsonNumber(currency.amountReceived()),
                                    currency.transactions(),
                                    Amounts.jsonNumber(currency.totalAmountReceived()),
                                    currency.unpricedTransactions()))
                            .toList(),
                    Amounts.jsonNumber(totals.totalAmountReceived()),
                    Summary.FIAT_CURRENCY,
                    totals.unpricedTransactions(),
                    createdFrom,
                    createdTo);
        }
    }

    /** What transfers to links in one currency brought. */
    record CurrencyTotal(
            String currency,
            BigDecimal amountReceived,
            long transactions,
            BigDecimal totalAmountReceived,
            long unpricedTransactions) {}
}
