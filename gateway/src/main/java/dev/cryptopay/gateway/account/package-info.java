/** GET /account, answered by the gateway itself. */
package dev.cryptopay.gateway.account;
