/**
 * Transactional outbox: events are stored with the state change that caused them and relayed to Kafka afterwards,
 * so a change is never published without being committed, nor committed without eventually being published.
 */
package dev.cryptopay.service.outbox;
