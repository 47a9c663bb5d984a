/** Blockchain transactions recorded against links by a checkout or chain watcher, through an internal route. */
package dev.cryptopay.paymentlinks.transaction;
