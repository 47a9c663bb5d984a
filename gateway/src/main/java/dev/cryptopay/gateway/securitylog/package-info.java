/**
 * The merchant's security log: every change to the account's access (API keys made, revoked, first used; production
 * access asked for) and to where its money and events go (the receiving key, webhook endpoints), recorded by the
 * gateway as the requests pass it, append-only, and listed to the merchant ({@code GET /account/security_events}).
 */
package dev.cryptopay.gateway.securitylog;
