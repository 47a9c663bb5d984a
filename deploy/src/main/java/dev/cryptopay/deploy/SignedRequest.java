package dev.cryptopay.deploy;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code ./signed-request METHOD PATH [BODY]} (see its usage below): prints the status line to stderr and the body to
 * stdout, so {@code ./signed-request GET /account | jq} works. Exit status 0 for 2xx/3xx, 1 for an error answer, 2 for
 * a usage or set-up problem.
 */
public final class SignedRequest {

    private SignedRequest() {}

    public static void main(String[] args) {
        System.exit(run(args, System.getenv(), System.out, System.err));
    }

    static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        if (args.length < 2 || args.length > 3 || args[0].startsWith("-")) {
            err.println("""
                    usage: ./signed-request METHOD PATH [BODY]
                      ./signed-request GET /account
                      ./signed-request POST /payment_links '{"payment_name":"Coffee","amount":10.5,"currency":"USDC"}'
                    PATH is relative to BASE_URL (query included); BODY '-' reads stdin, '@file' reads a file.
                    Credentials: .local/stack.env, written by ./run-local (another file: STACK_ENV=<path>).""");
            return 2;
        }
        Path envFile = stackEnvFile(env);
        Map<String, String> stack = EnvFile.read(envFile);
        for (String name : new String[] {"BASE_URL", "API_KEY", "PRIVATE_KEY"}) {
            if (!stack.containsKey(name)) {
                err.println("[signed-request] " + StackConsole.path(envFile)
                        + (Files.exists(envFile) ? " has no " + name + "." : " does not exist.")
                        + " Start the stack with ./run-local first; it writes that file.");
                return 2;
            }
        }
        String body = args.length == 3 ? args[2] : null;
        try {
            if ("-".equals(body)) {
                body = new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
            } else if (body != null && body.startsWith("@")) {
                body = Files.readString(Path.of(body.substring(1)), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            err.println("[signed-request] cannot read the body from " + args[2] + ": " + e.getMessage());
            return 2;
        }
        HttpResponse<String> response;
        try {
            response = new SignedClient(stack.get("BASE_URL"), stack.get("API_KEY"), stack.get("PRIVATE_KEY"))
                    .send(args[0], args[1], body);
        } catch (UncheckedIOException e) {
            err.println("[signed-request] " + e.getMessage() + ". Is the stack running (./run-local)?");
            return 2;
        } catch (IllegalArgumentException e) {
            err.println("[signed-request] " + e.getMessage());
            return 2;
        }
        err.println("HTTP " + response.statusCode());
        out.println(response.body());
        return response.statusCode() < 400 ? 0 : 1;
    }

    /** {@code STACK_ENV}, else {@code $STACK_DATA_DIR/stack.env}, else {@code <repository>/.local/stack.env}. */
    static Path stackEnvFile(Map<String, String> env) {
        String file = env.getOrDefault("STACK_ENV", "");
        String dataDir = env.getOrDefault("STACK_DATA_DIR", "");
        if (!file.isBlank()) {
            return Path.of(file);
        }
        return (dataDir.isBlank() ? StackOptions.repositoryRoot().resolve(".local") : Path.of(dataDir))
                .resolve("stack.env");
    }
}
