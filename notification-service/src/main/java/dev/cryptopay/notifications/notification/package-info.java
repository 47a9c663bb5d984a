/** The kept e-mails: one row per event, template and recipient, with its sending state. */
package dev.cryptopay.notifications.notification;
