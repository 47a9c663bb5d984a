package dev.cryptopay.chainwatcher.report;

import java.math.BigDecimal;

/**
 * The body of a report to payment-links-service, written by the service's JSON mapper in snake_case and declaration
 * order: {@code {network, tx_hash, payer_address, crypto_amount, status, confirmations, required_confirmations}}.
 *
 * @param cryptoAmount          in whole token units, written as a plain JSON number
 * @param status                {@code pending}, {@code confirmed} or {@code failed}
 * @param requiredConfirmations the network's confirmations for a transfer to count as confirmed
 */
public record TransactionReport(
        String network,
        String txHash,
        String payerAddress,
        BigDecimal cryptoAmount,
        String status,
        int confirmations,
        int requiredConfirmations) {}
