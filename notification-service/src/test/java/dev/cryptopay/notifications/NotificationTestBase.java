package dev.cryptopay.notifications;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.notifications.sending.SendLoop;
import dev.cryptopay.testsupport.TestKafka;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.mail.TestMail;
import dev.cryptopay.testsupport.service.ServiceTest;
import dev.cryptopay.testsupport.service.ServiceTestBase;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The running notification service (see {@link ServiceTest}) with its intake consuming the shared broker for real and
 * its mail going to the test JVM's SMTP server ({@link TestMail}). The send loop is off: tests call
 * {@link SendLoop#drain()} at the moments they choose, and move the clock to test the retry schedule without waiting;
 * the reminder loop is off too ({@code ReminderLoop#runDue()}), and its chain reads go to the shared dev chain.
 */
@ServiceTest(
        database = "notifications",
        properties = {
            "notifications.sending.enabled=false",
            "notifications.reminders.enabled=false",
            "notifications.explorers.Anvil=https://explorer.test/tx/{hash}",
            "spring.kafka.consumer.properties.metadata.max.age.ms=1000"
        })
public abstract class NotificationTestBase extends ServiceTestBase {

    @Autowired
    protected SendLoop sender;

    @Autowired
    protected DatabaseClient database;

    /** The dev chain the reminders read balances and allowances on (one per test JVM). */
    protected static final DevChain CHAIN = DevChain.shared();

    @DynamicPropertySource
    static void mailAndChain(DynamicPropertyRegistry registry) {
        TestMail.registerSpringProperties(registry);
        registry.add("notifications.chains." + DevChain.CHAIN_ID, CHAIN::rpcUrl);
    }

    /** A fresh address, so no test reads another's mail. */
    protected static String address(String name) {
        return name + "-" + UUID.randomUUID().toString().substring(0, 8) + "@customer.test";
    }

    /**
     * Publishes an event envelope as a producing service's relay does; {@code notify} may be null (the member is then
     * left out). Answers the event's id.
     */
    protected String publish(
            String topic,
            MerchantIdentity merchant,
            String type,
            Map<String, Object> data,
            Map<String, Object> notify) {
        return publish(topic, UUID.randomUUID().toString(), merchant, type, data, notify);
    }

    /** As {@link #publish(String, MerchantIdentity, String, Map, Map)}, with a given event id (a redelivery). */
    protected String publish(
            String topic,
            String id,
            MerchantIdentity merchant,
            String type,
            Map<String, Object> data,
            Map<String, Object> notify) {
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("id", id);
        envelope.put("type", type);
        envelope.put("created_at", clock.instant().toString());
        envelope.put("merchant_id", merchant.merchantId().toString());
        envelope.put("mode", merchant.mode().wireName());
        envelope.put("data", data);
        if (notify != null) {
            envelope.put("notify", notify);
        }
        TestKafka.send(topic, merchant.merchantId().toString(), json.writeValueAsString(envelope));
        return id;
    }

    /** How many e-mails are kept for the event. */
    protected long notificationsOf(String eventId) {
        return database.sql("SELECT count(*) FROM notification WHERE event_id = :id")
                .bind("id", UUID.fromString(eventId))
                .map(row -> row.get(0, Long.class))
                .one()
                .block();
    }

    /** One column of the e-mail kept for the event (null when it holds none). */
    protected <T> T column(String eventId, String column, Class<T> type) {
        return database.sql("SELECT " + column + " FROM notification WHERE event_id = :id")
                .bind("id", UUID.fromString(eventId))
                .map(row -> Optional.ofNullable(row.get(0, type)))
                .one()
                .block()
                .orElse(null);
    }
}
