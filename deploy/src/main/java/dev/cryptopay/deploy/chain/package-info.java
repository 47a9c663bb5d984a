/** The dev chain's pieces the launcher and dev-pay share: can it run here, its paying customer, EIP-681 URIs. */
package dev.cryptopay.deploy.chain;
