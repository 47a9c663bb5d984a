/** Reporting detected transfers to payment-links-service's internal transactions route. */
package dev.cryptopay.chainwatcher.report;
