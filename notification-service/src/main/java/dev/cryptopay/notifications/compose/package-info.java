/** Turning events into the e-mails to keep, as each merchant chose: its settings and name applied. */
package dev.cryptopay.notifications.compose;
