package dev.cryptopay.chainwatcher.report;

import java.math.BigDecimal;

/**
 * The body of a report of an outgoing transfer (a transfer from a link's deposit address: a refund, a sweep) to
 * payment-links-service, written by the service's JSON mapper in snake_case and declaration order: {@code {network,
 * tx_hash, log_index, token_contract, from_address, to_address, crypto_amount, status, confirmations,
 * required_confirmations}}. Identified, like an incoming one, by (network, tx_hash, log_index).
 *
 * @param logIndex              the Transfer log's index in its block; -1 for a native-coin transfer
 * @param tokenContract         the token moved (0x, lower-case), null for the native coin
 * @param fromAddress           the deposit address (lower-case)
 * @param toAddress             the recipient (lower-case)
 * @param cryptoAmount          in whole units of the moved token (base units / 10^its decimals), a plain JSON number
 * @param status                {@code pending}, {@code confirmed} or {@code failed} (a reorganisation took it away)
 * @param requiredConfirmations the network's confirmations for a transfer to count as confirmed
 */
public record OutgoingTransferReport(
        String network,
        String txHash,
        int logIndex,
        String tokenContract,
        String fromAddress,
        String toAddress,
        BigDecimal cryptoAmount,
        String status,
        int confirmations,
        int requiredConfirmations) {}
