package dev.cryptopay.deploy;

import java.nio.file.Files;
import java.nio.file.Path;

/** The checkout the launcher belongs to: where the service jars are built and {@code .local} lives by default. */
final class RepositoryRoot {

    private RepositoryRoot() {}

    /** {@code STACK_HOME}, else the directory holding {@code mvnw} and {@code deploy/pom.xml}, searched upwards. */
    static Path find(Path start) {
        String fromEnv = System.getenv("STACK_HOME");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return Path.of(fromEnv).toAbsolutePath();
        }
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve("mvnw"))
                    && Files.exists(dir.resolve("deploy").resolve("pom.xml"))) {
                return dir;
            }
        }
        return start;
    }
}
