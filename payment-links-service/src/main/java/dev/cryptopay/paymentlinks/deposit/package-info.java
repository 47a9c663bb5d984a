/**
 * What a merchant wants to hear of deposits: the USD value below which a transfer that cannot pay its link (late, or
 * another asset) is recorded without a {@code wallet.deposit} event, so dust sent to a deposit address (address
 * poisoning, spam) does not reach the merchant's webhooks.
 */
package dev.cryptopay.paymentlinks.deposit;
