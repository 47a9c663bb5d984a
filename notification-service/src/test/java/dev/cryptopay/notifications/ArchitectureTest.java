package dev.cryptopay.notifications;

import dev.cryptopay.testsupport.architecture.ArchitectureRules;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The rules of docs/architecture.md, on this service's classes and sources. */
class ArchitectureTest {

    @Test
    void followsTheArchitectureRules() {
        ArchitectureRules.check("dev.cryptopay.notifications", Path.of("src/main/java"));
    }
}
