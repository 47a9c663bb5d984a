/** Access log and upstream latency metrics. */
package dev.cryptopay.gateway.observability;
