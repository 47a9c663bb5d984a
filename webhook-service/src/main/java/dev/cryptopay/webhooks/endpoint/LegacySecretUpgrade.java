package dev.cryptopay.webhooks.endpoint;

import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Re-encrypts endpoint secrets stored in the legacy form (no associated data) into the form bound to their endpoint
 * (see {@link SecretCipher}). A Flyway migration cannot do it: the key is not in the database. So it runs in Java,
 * twice over: once for every row when the application is ready, and lazily whenever the delivery scheduler reads a
 * legacy secret (a row written by an older instance during a rolling deployment). Each update applies only if the
 * row still holds the ciphertext that was read, so a concurrent rotation is never overwritten.
 */
@Component
public class LegacySecretUpgrade {

    private static final Logger log = LoggerFactory.getLogger(LegacySecretUpgrade.class);

    private final EndpointRepository endpoints;
    private final SecretCipher cipher;

    public LegacySecretUpgrade(EndpointRepository endpoints, SecretCipher cipher) {
        this.endpoints = endpoints;
        this.cipher = cipher;
    }

    @EventListener(ApplicationReadyEvent.class)
    void onStartup() {
        upgradeAll()
                .subscribe(
                        count -> {
                            if (count > 0) {
                                log.info("Re-encrypted {} legacy endpoint secrets bound to their endpoints", count);
                            }
                        },
                        failure -> log.warn("Upgrading legacy endpoint secrets failed: {}", failure.toString()));
    }

    /** Upgrades every legacy row; answers how many were rewritten. Rows that do not decrypt are logged and left. */
    public Mono<Long> upgradeAll() {
        return endpoints
                .allSecrets()
                .concatMap(stored -> {
                    SecretCipher.Opened opened;
                    try {
                        opened = cipher.decrypt(stored.endpointId(), stored.encrypted());
                    } catch (IllegalStateException e) {
                        log.warn("Secret of endpoint {} does not decrypt; left as is", stored.endpointId());
                        return Mono.just(0L);
                    }
                    return opened.legacy()
                            ? upgrade(stored.endpointId(), stored.encrypted(), opened.secret())
                            : Mono.just(0L);
                })
                .reduce(0L, Long::sum);
    }

    /** Rewrites one legacy row in the bound form if it still holds {@code legacy}; answers 1 if it did. */
    public Mono<Long> upgrade(UUID endpointId, byte[] legacy, String secret) {
        return endpoints.upgradeSecret(endpointId, legacy, cipher.encrypt(endpointId, secret));
    }
}
