package dev.cryptopay.chainwatcher.watch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.chainwatcher.ChainWatcherTestBase;
import dev.cryptopay.testsupport.RestartablePostgres;
import dev.cryptopay.testsupport.chain.DevTokens;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The watcher's own PostgreSQL (a real server, started here so it can be stopped) goes away while links are
 * announced on Kafka. A record whose watch cannot be stored is read again, with a back-off, until it is: once the
 * database is back every announced address is watched, none skipped (the default error handler gave up after ten
 * quick tries and committed past such a record). Its own topic and consumer group keep the other test classes' out.
 */
class IntakeOutageTest extends ChainWatcherTestBase {

    private static final String TOPIC = "watch-outage.events";
    private static final RestartablePostgres postgres = RestartablePostgres.start();

    @DynamicPropertySource
    static void ownDatabase(DynamicPropertyRegistry registry) {
        postgres.registerSpringProperties(registry, "chain_watcher_outage");
        registry.add("chain-watcher.topic", () -> TOPIC);
        registry.add("chain-watcher.consumer-group", () -> "watch-outage");
    }

    @AfterAll
    static void stopPostgres() {
        postgres.close();
    }

    @Test
    void linksAnnouncedWhileTheDatabaseIsDownAreAllWatchedOnceItIsBack() throws Exception {
        UUID first = announceOn(TOPIC);
        await("the first link watched", () -> watched(first));

        postgres.stop();
        List<UUID> links = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            links.add(announceOn(TOPIC));
        }
        Thread.sleep(4_000); // intake fails meanwhile: ten quick tries are long over
        postgres.startAgain();

        await(
                "every link announced during the outage watched",
                () -> links.stream().allMatch(this::watched));
        assertThat(database.sql("SELECT count(*) FROM watched_address WHERE payment_link_id = ANY(:ids)")
                        .bind("ids", links.toArray(UUID[]::new))
                        .map(row -> row.get(0, Long.class))
                        .one()
                        .block())
                .as("each watched once")
                .isEqualTo(30);
    }

    private UUID announceOn(String topic) {
        UUID linkId = UUID.randomUUID();
        DevTokens usdc = DevTokens.USDC;
        publish(
                topic,
                linkId,
                "payment.created",
                created(
                        linkId,
                        freshAddress(),
                        usdc.address(),
                        usdc.decimals(),
                        "1000000",
                        clock.instant().plus(Duration.ofHours(1))),
                clock.instant());
        return linkId;
    }
}
