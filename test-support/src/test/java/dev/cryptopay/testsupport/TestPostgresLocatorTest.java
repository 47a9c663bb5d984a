package dev.cryptopay.testsupport;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestPostgresLocatorTest {

    @Test
    void failsWithWhatWasTriedAndWhatToDoWhenNoServerCanBeHad() throws Exception {
        int unusedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            unusedPort = socket.getLocalPort();
        }

        assertThatThrownBy(() -> TestPostgres.locate(Map.of(
                        "TEST_POSTGRES",
                        "local",
                        "TEST_PG_HOST",
                        "127.0.0.1",
                        "TEST_PG_PORT",
                        String.valueOf(unusedPort))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("No PostgreSQL for tests (TEST_POSTGRES=local)")
                .hasMessageContaining("local server 127.0.0.1:" + unusedPort + ": nothing listens")
                .hasMessageContaining("pg_ctlcluster")
                .hasMessageContaining("TEST_PG_HOST");
    }
}
