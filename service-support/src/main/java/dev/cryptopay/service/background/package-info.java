/** Background loops of a service (relays, sweepers, schedulers, metric probes) tied to the application lifecycle. */
package dev.cryptopay.service.background;
