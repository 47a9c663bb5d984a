/** What every Kafka consumer of the platform exports the same way: its group's lag, measured from the broker. */
package dev.cryptopay.service.kafka;
