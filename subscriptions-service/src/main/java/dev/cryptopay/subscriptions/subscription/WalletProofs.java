package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.subscriptions.config.SubscriptionsProperties;
import java.net.URI;
import java.time.Instant;
import java.util.Locale;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Checks a customer's {@link WalletProof} for this deployment and uses it up: the host it must name is the one of the
 * public API address ({@code subscriptions.public-url}), and each nonce of a wallet opens one change, so a proof seen
 * on the way (a proxy's log, a browser extension) cannot be sent again while it is fresh. Used nonces are kept until
 * their proof would have expired anyway. Runs in the caller's transaction: a change that fails leaves the nonce
 * unused, and of two identical requests at once the second waits for the first and is refused.
 */
@Component
class WalletProofs {

    private final DatabaseClient db;
    private final String host;

    WalletProofs(DatabaseClient db, SubscriptionsProperties properties) {
        this.db = db;
        this.host = hostOf(properties.publicUrl());
    }

    /** The host (and port, when the address names one) customers sign: lower case, as in a URL's authority. */
    static String hostOf(String publicUrl) {
        return URI.create(publicUrl).getRawAuthority().toLowerCase(Locale.ROOT);
    }

    /** 401 unless {@code wallet} signed this change for this deployment with a nonce it has not used. */
    Mono<Void> check(WalletProof proof, String wallet, Instant now) {
        return Mono.fromCallable(() -> proof.verify(host, wallet, now))
                .flatMap(expiresAt -> db.sql(
                                "INSERT INTO used_wallet_proof (wallet_address, nonce, expires_at) VALUES (:wallet, :nonce,"
                                        + " :expiresAt) ON CONFLICT DO NOTHING")
                        .bind("wallet", wallet.toLowerCase(Locale.ROOT))
                        .bind("nonce", proof.nonce())
                        .bind("expiresAt", expiresAt)
                        .fetch()
                        .rowsUpdated()
                        .flatMap(inserted -> inserted == 0
                                ? Mono.error(ApiException.unauthorized(
                                        "wallet_signature_replayed",
                                        "This wallet signature was used already; sign the change again with a new "
                                                + WalletProof.NONCE_HEADER))
                                : forgetExpired(now)));
    }

    /** Deletes a few expired nonces, so the table holds only about the last window's. */
    private Mono<Void> forgetExpired(Instant now) {
        return db.sql("DELETE FROM used_wallet_proof WHERE ctid IN (SELECT ctid FROM used_wallet_proof"
                        + " WHERE expires_at < :now LIMIT 100)")
                .bind("now", now)
                .then();
    }
}
