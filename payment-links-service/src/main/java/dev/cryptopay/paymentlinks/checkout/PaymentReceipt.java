package dev.cryptopay.paymentlinks.checkout;

import java.math.BigDecimal;

/**
 * One confirmed transaction of a paid link, as its checkout shows it in the receipt.
 *
 * @param explorerUrl the transaction on the network's block explorer; null where none is configured (the dev chain)
 */
public record PaymentReceipt(String txHash, BigDecimal amount, String explorerUrl) {}
