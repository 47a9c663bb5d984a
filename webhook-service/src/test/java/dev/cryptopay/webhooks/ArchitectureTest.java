package dev.cryptopay.webhooks;

import dev.cryptopay.testsupport.architecture.ArchitectureRules;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The rules of docs/architecture.md, on this service's classes and sources. */
class ArchitectureTest {

    /**
     * The breach left: delivery uses endpoint (its health, cipher and ownership check), and endpoint uses delivery
     * (enabling resumes the held deliveries through DeliveryClaims; a URL is checked by AddressPolicy).
     */
    private static final String DELIVERY_ENDPOINT_CYCLE = "Cycle detected: Slice dev.cryptopay.webhooks.delivery -> \n"
            + " ".repeat(16) + "Slice dev.cryptopay.webhooks.endpoint -> \n"
            + " ".repeat(16) + "Slice dev.cryptopay.webhooks.delivery\n";

    @Test
    void followsTheArchitectureRules() {
        ArchitectureRules.check("dev.cryptopay.webhooks", Path.of("src/main/java"), DELIVERY_ENDPOINT_CYCLE);
    }
}
