package dev.cryptopay.deploy;

import java.nio.file.Path;

/** A path as the user would type it: relative to the working directory when under it, otherwise absolute. */
final class DisplayPath {

    private DisplayPath() {}

    static String of(Path path) {
        if (path == null) {
            return "?";
        }
        Path cwd = Path.of("").toAbsolutePath();
        Path absolute = path.toAbsolutePath().normalize();
        if (absolute.startsWith(cwd) && !absolute.equals(cwd)) {
            return cwd.relativize(absolute).toString();
        }
        return absolute.toString();
    }
}
