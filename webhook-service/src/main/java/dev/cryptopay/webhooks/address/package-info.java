/** Which addresses webhooks may reach: the rule endpoint registration and the delivery client share. */
package dev.cryptopay.webhooks.address;
