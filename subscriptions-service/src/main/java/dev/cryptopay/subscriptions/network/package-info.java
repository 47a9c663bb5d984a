/** The networks and tokens plans bill in: reference data read once at start. */
package dev.cryptopay.subscriptions.network;
