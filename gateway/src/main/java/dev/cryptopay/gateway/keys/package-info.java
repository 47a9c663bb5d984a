/** The registry of merchants and API keys: storage, cached lookups and last-used bookkeeping. */
package dev.cryptopay.gateway.keys;
