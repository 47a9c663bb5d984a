package dev.cryptopay.deploychecks;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** A command-line tool a check needs (promtool, kubectl), found on the PATH. */
record ExternalTool(String name, Path executable) {

    record Result(int exitCode, String output) {}

    static Optional<ExternalTool> find(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(new ExternalTool(name, candidate));
            }
        }
        return Optional.empty();
    }

    /**
     * The tool, or a failed test that says how to install it. Setting {@code skipVariable} to a reason turns the
     * failure into a skipped test that prints the reason: never silent.
     */
    static ExternalTool required(String name, String skipVariable, String howToInstall) {
        Optional<ExternalTool> tool = find(name);
        if (tool.isPresent()) {
            return tool.get();
        }
        String reason = System.getenv(skipVariable);
        if (reason != null && !reason.isBlank()) {
            Assumptions.abort(name + " is not on the PATH; skipped because " + skipVariable + "=" + reason);
        }
        return fail(name + " is not on the PATH. " + howToInstall + " To skip this check on purpose, set "
                + skipVariable + "=<reason>.");
    }

    /**
     * The tool, or a skipped test (reported by JUnit with this reason) when it is missing: for checks that repeat
     * with a real tool what other tests already check in Java.
     */
    static ExternalTool optional(String name, String why) {
        Optional<ExternalTool> tool = find(name);
        Assumptions.assumeTrue(tool.isPresent(), () -> name + " is not on the PATH: " + why);
        return tool.get();
    }

    Result run(Path workingDirectory, String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(executable.toString());
        command.addAll(List.of(arguments));
        try {
            Path output = Files.createTempFile(name, ".out");
            try {
                Process process = new ProcessBuilder(command)
                        .directory(workingDirectory.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(output.toFile())
                        .start();
                process.getOutputStream().close();
                if (!process.waitFor(120, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    return fail(String.join(" ", command) + " did not finish within 120 s");
                }
                return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(output);
            }
        } catch (IOException e) {
            return fail("Could not run " + String.join(" ", command) + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("Interrupted while running " + name);
        }
    }
}
