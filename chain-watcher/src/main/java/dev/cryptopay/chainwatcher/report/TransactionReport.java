package dev.cryptopay.chainwatcher.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.math.BigDecimal;

/**
 * The body of a report to payment-links-service, written by the service's JSON mapper in snake_case and declaration
 * order: {@code {network, tx_hash, log_index, token_contract, payer_address, crypto_amount, status, confirmations,
 * required_confirmations, fiat_amount}}, {@code fiat_amount} only when known. A transfer is identified by (network, tx_hash, log_index): one transaction may hold
 * several transfers, to several links or to the same one.
 *
 * @param logIndex              the Transfer log's index in its block; -1 for a native-coin transfer
 * @param tokenContract         the token actually transferred (0x, lower-case), null for the native coin; it may
 *                              differ from the link's (a deposit of another asset)
 * @param cryptoAmount          in whole units of the transferred token (base units / 10^its decimals), written as a
 *                              plain JSON number
 * @param status                {@code pending}, {@code confirmed} or {@code failed}
 * @param requiredConfirmations the network's confirmations for a transfer to count as confirmed
 * @param fiatAmount            on a confirmed report, the transfer's USD value at confirmation (a plain JSON number);
 *                              null, and left out, when unknown or not confirmed
 */
public record TransactionReport(
        String network,
        String txHash,
        int logIndex,
        String tokenContract,
        String payerAddress,
        BigDecimal cryptoAmount,
        String status,
        int confirmations,
        int requiredConfirmations,
        @JsonInclude(JsonInclude.Include.NON_NULL) BigDecimal fiatAmount) {}
