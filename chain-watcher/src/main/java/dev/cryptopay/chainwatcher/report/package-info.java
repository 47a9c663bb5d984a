/**
 * Reporting: detected transfers to payment-links-service's internal transactions route, and the subscription
 * contract's logs to subscriptions-service's internal chain-logs route, both sent and signed the same way.
 */
package dev.cryptopay.chainwatcher.report;
