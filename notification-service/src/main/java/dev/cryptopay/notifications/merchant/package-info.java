/** What e-mails say about each merchant: the display name, remembered from the events that carried it. */
package dev.cryptopay.notifications.merchant;
