/** Settings of the notification service and its Kafka consumer. */
package dev.cryptopay.notifications.config;
