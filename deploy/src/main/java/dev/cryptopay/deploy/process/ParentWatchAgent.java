package dev.cryptopay.deploy.process;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * The agent jar every service JVM is started with ({@code -javaagent:<dir>/parent-watch.jar=<launcher pid>}), written
 * at start from the launcher's own copy of {@link ParentWatch}: the launcher may itself run from a jar or from
 * classes, and the agent must be a jar.
 */
public final class ParentWatchAgent {

    /** The agent's file name; a service's command line carries {@code parent-watch.jar=<launcher pid>}. */
    public static final String JAR_NAME = "parent-watch.jar";

    private ParentWatchAgent() {}

    /** Writes the agent as {@code <dir>/parent-watch.jar} (replacing it atomically) and returns its path. */
    public static Path writeJar(Path dir) {
        Path jar = dir.resolve(JAR_NAME);
        String entry = ParentWatch.class.getName().replace('.', '/') + ".class";
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(new Attributes.Name("Premain-Class"), ParentWatch.class.getName());
        try (InputStream classBytes = ParentWatch.class.getClassLoader().getResourceAsStream(entry)) {
            if (classBytes == null) {
                throw new IllegalStateException(entry + " not found on the class path");
            }
            Path temp = Files.createTempFile(dir, ".parent-watch", ".jar");
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(temp), manifest)) {
                out.putNextEntry(new JarEntry(entry));
                classBytes.transferTo(out);
                out.closeEntry();
            }
            Files.move(temp, jar, StandardCopyOption.REPLACE_EXISTING);
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + jar, e);
        }
    }
}
