package dev.cryptopay.deploy.process;

import dev.cryptopay.deploy.StackStartException;
import dev.cryptopay.deploy.console.DisplayPath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A service runs from {@code <data dir>/jars/<jar name>}, a hard link to (or, across file systems, a copy of) the
 * built jar taken at start. A Spring Boot jar's classes are read lazily by path, and a rebuild writes a new file at the
 * old path; the link keeps the running stack (and a service restarted within it) on the build it started with.
 */
public final class JarSnapshots {

    private JarSnapshots() {}

    /**
     * Links or copies {@code jar} into {@code jarsDir} under its own name, replacing an older snapshot atomically.
     *
     * @throws StackStartException when neither works
     */
    public static Path snapshot(Path jar, Path jarsDir) {
        Path target = jarsDir.resolve(jar.getFileName());
        try {
            Files.createDirectories(jarsDir);
            Path temp = target.resolveSibling("." + jar.getFileName() + "." + System.nanoTime());
            try {
                Files.createLink(temp, jar);
            } catch (IOException | UnsupportedOperationException e) {
                Files.copy(jar, temp);
            }
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            return target;
        } catch (IOException e) {
            throw new StackStartException("Cannot link or copy " + DisplayPath.of(jar) + " into "
                    + DisplayPath.of(target) + ": " + e.getMessage() + ". Set STACK_DATA_DIR to a writable directory.");
        }
    }
}
