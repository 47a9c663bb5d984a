package dev.cryptopay.deploy;

import java.util.Optional;

/**
 * What listens on a port of the stack: each service, the gateway's admin API, Kafka, the embedded PostgreSQL and the
 * dev chain's JSON-RPC. The declaration order is the order ports are checked in and named in messages.
 */
public enum StackPort {
    GATEWAY("gateway", "STACK_GATEWAY_PORT", 8080, StackService.GATEWAY),
    ADMIN("gateway admin API", "STACK_ADMIN_PORT", 8090, StackService.GATEWAY),
    PAYMENT_LINKS("payment-links-service", "STACK_PAYMENT_LINKS_PORT", 8081, StackService.PAYMENT_LINKS),
    SUBSCRIPTIONS("subscriptions-service", "STACK_SUBSCRIPTIONS_PORT", 8082, StackService.SUBSCRIPTIONS),
    WEBHOOKS("webhook-service", "STACK_WEBHOOKS_PORT", 8083, StackService.WEBHOOKS),
    CHAIN_WATCHER("chain-watcher", "STACK_CHAIN_WATCHER_PORT", 8084, StackService.CHAIN_WATCHER),
    KAFKA("Kafka", "STACK_KAFKA_PORT", 9092, null),
    EMBEDDED_POSTGRES("embedded PostgreSQL", "STACK_EMBEDDED_PG_PORT", 54329, null),
    DEV_CHAIN("dev chain", "STACK_CHAIN_PORT", 8545, null);

    private final String label;
    private final String variable;
    private final int defaultPort;
    private final StackService service;

    StackPort(String label, String variable, int defaultPort, StackService service) {
        this.label = label;
        this.variable = variable;
        this.defaultPort = defaultPort;
        this.service = service;
    }

    /** The port a service's own API listens on. */
    public static StackPort of(StackService service) {
        return switch (service) {
            case GATEWAY -> GATEWAY;
            case PAYMENT_LINKS -> PAYMENT_LINKS;
            case SUBSCRIPTIONS -> SUBSCRIPTIONS;
            case WEBHOOKS -> WEBHOOKS;
            case CHAIN_WATCHER -> CHAIN_WATCHER;
        };
    }

    /** How messages name it: the service name, {@code gateway admin API}, {@code Kafka}, {@code embedded PostgreSQL}, … */
    public String label() {
        return label;
    }

    /** The environment variable of {@code ./run-local} that moves it. */
    public String variable() {
        return variable;
    }

    /** The port {@code ./run-local} uses unless that variable says otherwise. */
    public int defaultPort() {
        return defaultPort;
    }

    /** The service whose process listens here (the admin API is the gateway's); empty for Kafka, PostgreSQL, chain. */
    public Optional<StackService> service() {
        return Optional.ofNullable(service);
    }
}
