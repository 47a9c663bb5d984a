package dev.cryptopay.deploy;

/**
 * What listens on a port of the stack, with the variable that moves it and its default. The declaration order is the
 * order ports are checked in and named in messages.
 */
public enum StackPort {
    GATEWAY("gateway", "STACK_GATEWAY_PORT", 8080, StackService.GATEWAY),
    ADMIN("gateway admin API", "STACK_ADMIN_PORT", 8090, StackService.GATEWAY),
    PAYMENT_LINKS("payment-links-service", "STACK_PAYMENT_LINKS_PORT", 8081, StackService.PAYMENT_LINKS),
    SUBSCRIPTIONS("subscriptions-service", "STACK_SUBSCRIPTIONS_PORT", 8082, StackService.SUBSCRIPTIONS),
    WEBHOOKS("webhook-service", "STACK_WEBHOOKS_PORT", 8083, StackService.WEBHOOKS),
    CHAIN_WATCHER("chain-watcher", "STACK_CHAIN_WATCHER_PORT", 8084, StackService.CHAIN_WATCHER),
    NOTIFICATIONS("notification-service", "STACK_NOTIFICATIONS_PORT", 8085, StackService.NOTIFICATIONS),
    SMTP("SMTP (GreenMail)", "STACK_SMTP_PORT", 3025, null),
    KAFKA("Kafka", "STACK_KAFKA_PORT", 9092, null),
    EMBEDDED_POSTGRES("embedded PostgreSQL", "STACK_EMBEDDED_PG_PORT", 54329, null),
    DEV_CHAIN("dev chain", "STACK_CHAIN_PORT", 8545, null);

    final String label;
    final String variable;
    final int defaultPort;
    /** The service whose process listens here (the admin API is the gateway's); null for Kafka, PostgreSQL, chain, SMTP. */
    final StackService service;

    StackPort(String label, String variable, int defaultPort, StackService service) {
        this.label = label;
        this.variable = variable;
        this.defaultPort = defaultPort;
        this.service = service;
    }

    /** The port a service's own API listens on. */
    static StackPort of(StackService service) {
        return valueOf(service.name());
    }
}
