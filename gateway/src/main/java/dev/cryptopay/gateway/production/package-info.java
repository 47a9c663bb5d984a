/**
 * Production access: a merchant's request to create live keys ({@code POST /account/production_access}), one open
 * request at a time, and the operator's decision on it through the admin API or the command line.
 */
package dev.cryptopay.gateway.production;
