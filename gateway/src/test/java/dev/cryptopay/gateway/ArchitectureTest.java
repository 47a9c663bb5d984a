package dev.cryptopay.gateway;

import dev.cryptopay.testsupport.architecture.ArchitectureRules;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The rules of docs/architecture.md, on the gateway's classes and sources. */
class ArchitectureTest {

    @Test
    void followsTheArchitectureRules() {
        ArchitectureRules.check("dev.cryptopay.gateway", Path.of("src/main/java"));
    }
}
