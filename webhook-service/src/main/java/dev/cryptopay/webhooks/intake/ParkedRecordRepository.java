package dev.cryptopay.webhooks.intake;

import java.time.Instant;
import java.time.ZoneOffset;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;

/** Kafka records that are not valid events, kept for operators instead of blocking their partition. */
@Repository
class ParkedRecordRepository {

    private final DatabaseClient database;

    ParkedRecordRepository(DatabaseClient database) {
        this.database = database;
    }

    /** Parks the record with the reason; a record read again after a rebalance is parked only once. */
    Mono<Void> park(ConsumerRecord<String, String> record, String reason, Instant now) {
        var spec = database.sql("INSERT INTO parked_record (topic, partition, record_offset, record_key, value, "
                        + "reason, parked_at) VALUES (:topic, :partition, :offset, :key, :value, :reason, :now) "
                        + "ON CONFLICT DO NOTHING")
                .bind("topic", record.topic())
                .bind("partition", record.partition())
                .bind("offset", record.offset())
                .bind("reason", reason)
                .bind("now", now.atOffset(ZoneOffset.UTC));
        spec = record.key() == null ? spec.bindNull("key", String.class) : spec.bind("key", record.key());
        spec = record.value() == null ? spec.bindNull("value", String.class) : spec.bind("value", record.value());
        return spec.then();
    }
}
