package dev.cryptopay.deploy;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The services the launcher starts, each as its own {@code java -jar} process. */
public enum StackService {
    GATEWAY("gateway", null),
    PAYMENT_LINKS("payment-links-service", "payment_links"),
    SUBSCRIPTIONS("subscriptions-service", "subscriptions"),
    WEBHOOKS("webhook-service", "webhooks"),
    /** Runs only with the dev chain (it watches it); see {@code StackOptions.devChain}. */
    CHAIN_WATCHER("chain-watcher", "chain_watcher");

    /** The jar version the launcher starts ({@code <module>/target/<module>-<version>.jar}). */
    public static final String VERSION = "0.1.0-SNAPSHOT";

    private final String serviceName;
    private final String database;

    StackService(String serviceName, String database) {
        this.serviceName = serviceName;
        this.database = database;
    }

    /** The Maven module and process name, e.g. {@code payment-links-service}. */
    public String serviceName() {
        return serviceName;
    }

    /** The database base name (before the data directory's suffix); the gateway's is {@code gateway}. */
    String database() {
        return database == null ? "gateway" : database;
    }

    /** {@code <module>/target/<module>-0.1.0-SNAPSHOT.jar}, relative to the repository. */
    String jarPath() {
        return serviceName + "/target/" + serviceName + "-" + VERSION + ".jar";
    }

    /** The service of that name ({@code gateway}, {@code payment-links-service}, ...). */
    public static StackService byName(String name) {
        for (StackService service : values()) {
            if (service.serviceName.equals(name)) {
                return service;
            }
        }
        throw new IllegalArgumentException("no service '" + name + "'; the stack runs "
                + Arrays.stream(values()).map(StackService::serviceName).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return serviceName;
    }
}
