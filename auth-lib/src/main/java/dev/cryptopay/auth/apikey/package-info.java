/**
 * Merchant keys: API keys ({@code mk_test_…}/{@code mk_live_…}) and the form publishable keys ({@code pk_…}) share,
 * with one parser, generation and safe display for both.
 */
package dev.cryptopay.auth.apikey;
