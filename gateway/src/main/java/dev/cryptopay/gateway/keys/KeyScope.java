package dev.cryptopay.gateway.keys;

import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What an API key may do, chosen when it is created and never changed (to change a key's scopes, create another and
 * revoke it). Each signed route belongs to one resource scope; a request that only reads (GET) is also allowed with
 * {@link #READ}. {@code GET /account} needs none: every key may ask who it is and what it may do.
 */
public enum KeyScope {
    /** Every GET a full key may make; nothing that changes anything. */
    READ("read"),
    /** Payment links, their transfers, refunds, deposits and summaries (the receiving key excepted). */
    PAYMENT_LINKS("payment_links"),
    /** Plans, subscribers, subscription links and invitations. */
    SUBSCRIPTIONS("subscriptions"),
    /** Webhook endpoints, deliveries and events. */
    WEBHOOKS("webhooks"),
    /** API keys, the receiving key, production access and the security log. */
    ACCOUNT("account");

    /** Every scope: what keys made by the operator, at sign-up and before scopes existed hold. */
    public static final Set<KeyScope> ALL = Set.copyOf(EnumSet.allOf(KeyScope.class));

    private final String wireName;

    KeyScope(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** The scope with this wire name; {@link IllegalArgumentException} for any other text. */
    public static KeyScope fromWireName(String wireName) {
        for (KeyScope scope : values()) {
            if (scope.wireName.equals(wireName)) {
                return scope;
            }
        }
        throw new IllegalArgumentException("unknown scope " + wireName);
    }

    /** The wire names, in declaration order. */
    public static List<String> wireNames(Collection<KeyScope> scopes) {
        if (scopes.isEmpty()) {
            return List.of();
        }
        return EnumSet.copyOf(scopes).stream().map(KeyScope::wireName).toList();
    }

    /** The first scope (in declaration order) of {@code wanted} that {@code held} lacks; empty when it has them all. */
    public static Optional<KeyScope> firstMissing(Set<KeyScope> wanted, Set<KeyScope> held) {
        return wanted.stream().filter(scope -> !held.contains(scope)).sorted().findFirst();
    }

    /** Whether {@code scopes} may make a request of {@code resource} that only reads ({@code reads}) or not. */
    public static boolean allows(Set<KeyScope> scopes, KeyScope resource, boolean reads) {
        return scopes.contains(resource) || (reads && scopes.contains(READ));
    }
}
