/** Subscriptions service: plans, subscribers and subscription links. */
package dev.cryptopay.subscriptions;
