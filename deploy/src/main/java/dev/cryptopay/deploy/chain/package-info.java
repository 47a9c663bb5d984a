/** The dev chain's pieces the launcher and dev-pay share: can it run here, and its paying customer. */
package dev.cryptopay.deploy.chain;
