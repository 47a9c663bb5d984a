/** Merchant API keys ({@code mk_test_…}/{@code mk_live_…}): format, parsing, generation and safe display. */
package dev.cryptopay.auth.apikey;
