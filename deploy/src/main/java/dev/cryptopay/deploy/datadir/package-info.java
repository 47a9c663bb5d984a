/** The stack's data directory ({@code .local/}): its layout and database names, the one-launcher lock and its secrets. */
package dev.cryptopay.deploy.datadir;
