/**
 * Notification service: turns domain events into e-mails (one per event, template and recipient), keeps each durably
 * and sends it over SMTP with retries on a schedule.
 */
package dev.cryptopay.notifications;
