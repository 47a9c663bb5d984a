/**
 * The customer checkout of a payment link: a page rendered on the server (works without JavaScript), its status as
 * JSON and as a Server-Sent Events stream, and the page's script and stylesheet. Only customer-safe link data is
 * shown: never customer details, order id, webhook metadata, merchant id or origin.
 */
package dev.cryptopay.paymentlinks.checkout;
