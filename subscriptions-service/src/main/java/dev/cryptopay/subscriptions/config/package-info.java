/** The service's configuration record. */
package dev.cryptopay.subscriptions.config;
