/** Payment links: the aggregate and its transitions, validation, storage, listing and the merchant routes. */
package dev.cryptopay.paymentlinks.paymentlink;
