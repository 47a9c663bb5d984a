/** The stack's PostgreSQL (a running server or an embedded one) and its in-JVM Kafka broker. */
package dev.cryptopay.deploy.infrastructure;
