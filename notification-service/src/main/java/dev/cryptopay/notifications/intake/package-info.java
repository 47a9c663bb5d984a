/** Intake from Kafka: each poll's events become kept e-mails in one transaction before their offsets are committed. */
package dev.cryptopay.notifications.intake;
