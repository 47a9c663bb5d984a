/** Subscription plans: terms signed by the merchant's wallet (EIP-712), their typed data, reads and detail updates. */
package dev.cryptopay.subscriptions.plan;
