/** The stack's data directory ({@code .local/}): its layout, the one-launcher lock and the secrets kept there. */
package dev.cryptopay.deploy.datadir;
