/**
 * Sending: due e-mails are claimed ({@code FOR UPDATE SKIP LOCKED}, so instances share the work), sent over SMTP and
 * their outcome recorded; a refused or failed attempt is retried on the schedule, then given up.
 */
package dev.cryptopay.notifications.sending;
