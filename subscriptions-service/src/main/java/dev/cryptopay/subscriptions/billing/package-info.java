/** The billing scheduler: missed periods, debt, auto-cancellation and expiry notices, on the service's clock. */
package dev.cryptopay.subscriptions.billing;
