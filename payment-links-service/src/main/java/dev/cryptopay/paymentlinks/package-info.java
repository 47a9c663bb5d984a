/** Payment-links service: payment links, their lifecycle and payment events. */
package dev.cryptopay.paymentlinks;
