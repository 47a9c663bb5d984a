package dev.cryptopay.deploy.process;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * The agent jar every service JVM is started with ({@code -javaagent:<dir>/parent-watch.jar=<launcher pid>}), written
 * at start from the launcher's own copy of {@link ParentWatch}: the launcher may itself run from a jar or from
 * classes, and the agent must be a jar. The jar is rewritten only when its content changes: the agent is on each
 * service's class path, and a class-data archive recorded with it stays valid only while the jar is the same file.
 */
public final class ParentWatchAgent {

    /** The agent's file name; a service's command line carries {@code parent-watch.jar=<launcher pid>}. */
    public static final String JAR_NAME = "parent-watch.jar";

    /** The jar's entry time, fixed so that the same class gives the same bytes (2000-01-01T00:00:00Z). */
    private static final long FIXED_ENTRY_TIME = 946_684_800_000L;

    private ParentWatchAgent() {}

    /**
     * Writes the agent as {@code <dir>/parent-watch.jar} (replacing it atomically) unless it is there already with the
     * same bytes, and returns its path.
     */
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
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (JarOutputStream out = new JarOutputStream(bytes)) {
                out.putNextEntry(entryAtFixedTime(JarFile.MANIFEST_NAME));
                manifest.write(out);
                out.closeEntry();
                out.putNextEntry(entryAtFixedTime(entry));
                classBytes.transferTo(out);
                out.closeEntry();
            }
            if (Files.isRegularFile(jar) && Arrays.equals(Files.readAllBytes(jar), bytes.toByteArray())) {
                return jar;
            }
            Path temp = Files.createTempFile(dir, ".parent-watch", ".jar");
            Files.write(temp, bytes.toByteArray());
            Files.move(temp, jar, StandardCopyOption.REPLACE_EXISTING);
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + jar, e);
        }
    }

    private static JarEntry entryAtFixedTime(String name) {
        JarEntry entry = new JarEntry(name);
        entry.setTime(FIXED_ENTRY_TIME);
        return entry;
    }
}
