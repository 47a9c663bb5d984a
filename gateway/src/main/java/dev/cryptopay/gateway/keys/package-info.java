/** The registry of merchants, API keys and publishable keys: storage, cached lookups and last-used bookkeeping. */
package dev.cryptopay.gateway.keys;
