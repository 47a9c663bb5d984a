package dev.cryptopay.chainwatcher.watch;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Learns deposit addresses from {@code payment.created} events, and keeps watching one (or watches it again) until a
 * refund from it can no longer be paid when a {@code transfer.initiated} event announces the refund. Idempotent: the
 * link id is the key, so a redelivered record changes nothing. Offsets are committed once per poll, after its records
 * were handled (ack-mode BATCH); if the database is down the listener throws and the same record is read again, with a
 * back-off, until it is stored ({@code KafkaConsumerConfiguration}). Events of other types, links without a deposit
 * address, chains this instance does not watch and malformed records are skipped with a log line (never retried).
 */
@Component
class PaymentEventConsumer {

    private static final Logger log = LoggerFactory.getLogger(PaymentEventConsumer.class);
    private static final Duration STORE_TIMEOUT = Duration.ofSeconds(30);

    private final WatchRepository watches;
    private final ChainWatcherProperties properties;
    private final JsonMapper json;
    private final Clock clock;

    PaymentEventConsumer(WatchRepository watches, ChainWatcherProperties properties, JsonMapper json, Clock clock) {
        this.watches = watches;
        this.properties = properties;
        this.json = json;
        this.clock = clock;
    }

    @KafkaListener(
            id = "chain-watcher-intake",
            topics = "${chain-watcher.topic:payment-links.events}",
            groupId = "${chain-watcher.consumer-group:chain-watcher}")
    void onRecord(ConsumerRecord<String, String> record) {
        Optional<WatchedAddress> watch;
        Optional<WatchedAddress> renewal;
        try {
            JsonNode event = json.readTree(record.value());
            watch = watchOf(event);
            renewal = refundWatchOf(event);
        } catch (RuntimeException malformed) {
            log.warn(
                    "Skipped record {}/{}/{}: {}",
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    malformed.toString());
            return;
        }
        watch.ifPresent(found -> watches.insertOnce(found, clock.instant()).block(STORE_TIMEOUT));
        renewal.ifPresent(found -> watches.renew(found, clock.instant()).block(STORE_TIMEOUT));
    }

    /**
     * The watch a {@code transfer.initiated} event (a refund paid from the link's deposit address) asks for: the
     * deposit address, watched until the refund's {@code expires_at} + the late window, so the refund's transfer out
     * is seen. The link id is the event's {@code payment_link_id}; the asset is the refund's.
     */
    Optional<WatchedAddress> refundWatchOf(JsonNode event) {
        return announcedWatch(
                event,
                "transfer.initiated",
                "payment_link_id",
                data -> "Refund " + text(data, "refund_id") + " of link " + text(data, "payment_link_id"));
    }

    /** The address to watch that an event announces, if it announces one on a chain this instance watches. */
    Optional<WatchedAddress> watchOf(JsonNode event) {
        return announcedWatch(event, "payment.created", "id", data -> "Link " + text(data, "id"));
    }

    /**
     * The deposit address an event of {@code type} names in its {@code data}, with the asset and amount there, watched
     * until {@code expires_at} + the late window; empty for another type, without an address, or on a chain this
     * instance does not watch (logged, naming what the event is about as {@code subject} says).
     *
     * @param linkIdField the member of {@code data} that holds the link's id
     */
    private Optional<WatchedAddress> announcedWatch(
            JsonNode event, String type, String linkIdField, Function<JsonNode, String> subject) {
        if (!type.equals(event.path("type").asString(""))) {
            return Optional.empty();
        }
        JsonNode data = event.path("data");
        String deposit = text(data, "deposit_address");
        if (deposit == null) {
            return Optional.empty();
        }
        long chainId = data.path("chain_id").asLong(0);
        if (properties.network(chainId).isEmpty()) {
            log.warn("{} is paid on chain {}, which this watcher is not configured for", subject.apply(data), chainId);
            return Optional.empty();
        }
        Instant expiresAt = Instant.parse(data.path("expires_at").asString());
        return Optional.of(new WatchedAddress(
                UUID.fromString(data.path(linkIdField).asString()),
                chainId,
                data.path("network").asString(),
                WatchedAddress.normalise(deposit),
                WatchedAddress.normalise(text(data, "token_contract")),
                data.path("decimals").asInt(),
                new BigInteger(data.path("amount_base_units").asString()),
                expiresAt,
                expiresAt.plus(properties.lateWindow()),
                false,
                createdAt(event)));
    }

    /**
     * The event's {@code created_at}: for {@code payment.created}, when the link was made. Null when absent or not a
     * time: the watch is kept, and the whole look-back is searched for it.
     */
    private static Instant createdAt(JsonNode event) {
        String createdAt = text(event, "created_at");
        try {
            return createdAt == null ? null : Instant.parse(createdAt);
        } catch (DateTimeParseException notATime) {
            log.warn("Event {} has a created_at that is not a time: {}", text(event, "id"), createdAt);
            return null;
        }
    }

    private static String text(JsonNode data, String field) {
        JsonNode value = data.path(field);
        return value.isString() ? value.asString() : null;
    }
}
