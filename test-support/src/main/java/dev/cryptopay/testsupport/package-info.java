/**
 * Real infrastructure for tests: a fresh PostgreSQL database per test class and a real Kafka broker, from the local
 * server, Testcontainers (when a Docker engine exists) or an embedded server from Maven Central.
 */
package dev.cryptopay.testsupport;
