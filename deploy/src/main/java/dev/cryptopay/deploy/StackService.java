package dev.cryptopay.deploy;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The services the launcher starts, each as its own {@code java -jar} process. */
public enum StackService {
    GATEWAY("gateway", "gateway"),
    PAYMENT_LINKS("payment-links-service", "payment_links"),
    SUBSCRIPTIONS("subscriptions-service", "subscriptions"),
    WEBHOOKS("webhook-service", "webhooks"),
    NOTIFICATIONS("notification-service", "notifications"),
    /** Runs only with the dev chain, which it watches. */
    CHAIN_WATCHER("chain-watcher", "chain_watcher");

    /** The jar version the launcher starts ({@code <module>/target/<module>-<version>.jar}). */
    public static final String VERSION = "0.1.0-SNAPSHOT";

    final String serviceName;
    /** The base name of its database (deploy/README.md "Database names"). */
    final String database;

    StackService(String serviceName, String database) {
        this.serviceName = serviceName;
        this.database = database;
    }

    String jarPath() {
        return serviceName + "/target/" + serviceName + "-" + VERSION + ".jar";
    }

    static StackService byName(String name) {
        return Arrays.stream(values())
                .filter(service -> service.serviceName.equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no service '" + name + "'; the stack runs "
                        + Arrays.stream(values()).map(StackService::toString).collect(Collectors.joining(", "))));
    }

    @Override
    public String toString() {
        return serviceName;
    }
}
