package dev.cryptopay.webhooks.intake;

import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.service.db.SqlValues;
import java.time.Instant;
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
                .bind("now", utc(now));
        spec = SqlValues.bind(spec, "key", record.key(), String.class);
        return SqlValues.bind(spec, "value", record.value(), String.class).then();
    }
}
