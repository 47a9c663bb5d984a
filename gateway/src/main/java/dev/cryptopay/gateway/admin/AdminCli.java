package dev.cryptopay.gateway.admin;

import dev.cryptopay.gateway.keys.Merchant;
import dev.cryptopay.gateway.keys.StoredApiKey;
import dev.cryptopay.gateway.keys.StoredPublishableKey;
import dev.cryptopay.gateway.production.AccessRequest;
import dev.cryptopay.gateway.production.AccessStatus;
import dev.cryptopay.gateway.production.ProductionAccess;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.request.PageRequest;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import reactor.core.publisher.Mono;

/**
 * Bootstrapping from the command line, with the same jar and configuration as the server:
 * <pre>
 * java -jar gateway.jar admin create-merchant --name "Acme" --email ops@acme.test [--mode test|live]
 *                                            [--public-key-file key.pub] [--algorithm ed25519|rsa-pss-sha256]
 * java -jar gateway.jar admin create-key --merchant &lt;id&gt; --mode test [--public-key-file …] [--algorithm …]
 * java -jar gateway.jar admin create-publishable-key --merchant &lt;id&gt; [--mode test|live]
 * java -jar gateway.jar admin list-keys --merchant &lt;id&gt;
 * java -jar gateway.jar admin revoke-key --key &lt;api_key or publishable_key&gt;
 * java -jar gateway.jar admin list-production-access [--status pending|approved|rejected]
 * java -jar gateway.jar admin approve-production-access --request &lt;id&gt;
 * java -jar gateway.jar admin reject-production-access --request &lt;id&gt; [--reason …]
 * </pre>
 * Runs Spring without a web server (so the database settings, Flyway migrations and repository are exactly the
 * server's) and returns an exit status: 0 done, 1 refused or failed, 2 usage error. Spring settings may be given as
 * {@code --spring.r2dbc.url=…} style arguments or environment variables as usual.
 */
public final class AdminCli {

    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int USAGE = 2;

    private static final Set<String> OPTIONS = Set.of(
            "name", "email", "mode", "merchant", "key", "algorithm", "public-key-file", "request", "status", "reason");
    private static final Set<String> COMMANDS = Set.of(
            "create-merchant",
            "create-key",
            "create-publishable-key",
            "list-keys",
            "revoke-key",
            "list-production-access",
            "approve-production-access",
            "reject-production-access");
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private AdminCli() {}

    /**
     * @param application the server's Spring application class, whose configuration the command line runs (passed in
     *                    so this package does not depend on the one that holds {@code main})
     * @param args        the arguments after {@code admin}
     */
    public static int run(Class<?> application, String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("help") || args[0].equals("--help")) {
            usage(args.length == 0 ? err : out);
            return args.length == 0 ? USAGE : OK;
        }
        String command = args[0];
        Map<String, String> options = new HashMap<>();
        List<String> springArgs = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                err.println("Unexpected argument: " + arg);
                usage(err);
                return USAGE;
            }
            String name = arg.substring(2);
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            if (!OPTIONS.contains(name)) {
                springArgs.add(arg); // a Spring property such as --spring.r2dbc.url=…
                continue;
            }
            if (value == null) {
                if (i + 1 >= args.length) {
                    err.println("Option --" + name + " needs a value");
                    return USAGE;
                }
                value = args[++i];
            }
            options.put(name, value);
        }
        if (!COMMANDS.contains(command)) {
            err.println("Unknown command: " + command);
            usage(err);
            return USAGE;
        }
        String missing = missingOption(command, options);
        if (missing != null) {
            err.println(command + " needs --" + missing);
            usage(err);
            return USAGE;
        }
        String publicKey;
        try {
            publicKey = options.containsKey("public-key-file")
                    ? Files.readString(Path.of(options.get("public-key-file")), StandardCharsets.UTF_8)
                    : null;
        } catch (IOException e) {
            err.println("Cannot read " + options.get("public-key-file") + ": " + e.getMessage());
            return FAILED;
        }
        try (ConfigurableApplicationContext context = start(application, springArgs)) {
            MerchantAdmin admin = context.getBean(MerchantAdmin.class);
            ProductionAccess access = context.getBean(ProductionAccess.class);
            return switch (command) {
                case "create-merchant" -> createMerchant(admin, options, publicKey, out);
                case "create-key" -> createKey(admin, options.get("merchant"), options, publicKey, out);
                case "create-publishable-key" -> createPublishableKey(admin, options.get("merchant"), options, out);
                case "list-keys" -> listKeys(admin, options.get("merchant"), out);
                case "list-production-access" -> listProductionAccess(access, options.get("status"), out);
                case "approve-production-access" -> printDecision(access.approve(options.get("request")), out);
                case "reject-production-access" ->
                    printDecision(access.reject(options.get("request"), options.get("reason")), out);
                default -> revokeKey(admin, options.get("key"), out);
            };
        } catch (ApiException e) {
            err.println("Refused: " + e.getMessage());
            e.errors().forEach(error -> err.println("  " + error.field() + ": " + error.message()));
            return FAILED;
        } catch (RuntimeException e) {
            err.println("Failed: " + e.getMessage());
            return FAILED;
        }
    }

    private static ConfigurableApplicationContext start(Class<?> application, List<String> springArgs) {
        return new SpringApplicationBuilder(application)
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .logStartupInfo(false)
                .properties(Map.of(
                        "spring.cloud.gateway.server.webflux.enabled", "false",
                        // A running gateway's relay publishes the events the command writes (a key revoked).
                        "outbox.relay-enabled", "false",
                        "logging.level.root", "WARN",
                        "spring.main.register-shutdown-hook", "false"))
                .run(springArgs.toArray(String[]::new));
    }

    private static int createMerchant(
            MerchantAdmin admin, Map<String, String> options, String publicKey, PrintStream out) {
        Merchant merchant =
                admin.createMerchant(options.get("name"), options.get("email")).block(TIMEOUT);
        out.println("Merchant created");
        out.println("  merchant_id: " + merchant.id());
        out.println("  name:        " + merchant.name());
        out.println("  email:       " + merchant.email());
        createKey(admin, merchant.id().toString(), options, publicKey, out);
        return createPublishableKey(admin, merchant.id().toString(), options, out);
    }

    private static int createPublishableKey(
            MerchantAdmin admin, String merchantId, Map<String, String> options, PrintStream out) {
        StoredPublishableKey created = admin.createPublishableKey(merchantId, options.getOrDefault("mode", "test"))
                .block(TIMEOUT);
        out.println();
        out.println("Publishable key (not a secret: use it as merchant_key in customer-side code; list-keys shows it)");
        out.println("  merchant_id:     " + created.merchantId());
        out.println("  publishable_key: " + created.value());
        out.println("  mode:            " + created.mode().wireName());
        return OK;
    }

    private static int createKey(
            MerchantAdmin admin, String merchantId, Map<String, String> options, String publicKey, PrintStream out) {
        MerchantAdmin.CreatedKey created = admin.createKey(
                        merchantId, options.getOrDefault("mode", "test"), options.get("algorithm"), publicKey)
                .block(TIMEOUT);
        out.println();
        out.println("API key (shown only now; the gateway keeps a hash of it)");
        out.println("  merchant_id: " + created.stored().merchantId());
        out.println("  api_key:     " + created.apiKey().value());
        out.println("  mode:        " + created.stored().mode().wireName());
        out.println("  algorithm:   " + created.stored().algorithm().wireName());
        if (created.generated() != null) {
            out.println();
            out.println("Private key, PEM (save as a file, e.g. merchant-key.pem; sign with openssl pkeyutl):");
            out.print(
                    created.generated().privateKeyPem().endsWith("\n")
                            ? created.generated().privateKeyPem()
                            : created.generated().privateKeyPem() + "\n");
            out.println();
            out.println("Private key, one line (for an environment variable such as CRYPTOPAY_PRIVATE_KEY):");
            out.println(created.generated().privateKeyCompact());
        } else {
            out.println("  (public key registered; the private key stays with the merchant)");
        }
        return OK;
    }

    private static int listKeys(MerchantAdmin admin, String merchantId, PrintStream out) {
        List<StoredApiKey> keys = admin.listKeys(merchantId).collectList().block(TIMEOUT);
        out.printf(
                "%-14s %-5s %-15s %-8s %-28s %-28s %s%n",
                "PREFIX", "MODE", "ALGORITHM", "STATUS", "CREATED", "LAST USED", "REVOKED");
        for (StoredApiKey key : keys) {
            out.printf(
                    "%-14s %-5s %-15s %-8s %-28s %-28s %s%n",
                    key.displayPrefix(),
                    key.mode().wireName(),
                    key.algorithm().wireName(),
                    key.status().wireName(),
                    key.createdAt(),
                    key.lastUsedAt() == null ? "-" : key.lastUsedAt(),
                    key.revokedAt() == null ? "-" : key.revokedAt());
        }
        List<StoredPublishableKey> publishable =
                admin.listPublishableKeys(merchantId).collectList().block(TIMEOUT);
        out.println();
        out.printf(
                "%-40s %-5s %-8s %-28s %-28s %s%n",
                "PUBLISHABLE KEY", "MODE", "STATUS", "CREATED", "LAST USED", "REVOKED");
        for (StoredPublishableKey key : publishable) {
            out.printf(
                    "%-40s %-5s %-8s %-28s %-28s %s%n",
                    key.value(),
                    key.mode().wireName(),
                    key.status().wireName(),
                    key.createdAt(),
                    key.lastUsedAt() == null ? "-" : key.lastUsedAt(),
                    key.revokedAt() == null ? "-" : key.revokedAt());
        }
        return OK;
    }

    private static int revokeKey(MerchantAdmin admin, String key, PrintStream out) {
        MerchantAdmin.RevokedKey revoked = admin.revoke(key).block(TIMEOUT);
        out.println("Revoked " + revoked.displayPrefix() + "… at " + revoked.revokedAt()
                + " (running gateways refuse it within gateway.keys.cache-ttl)");
        return OK;
    }

    /** Up to 100 requests in one status (pending unless --status says otherwise), oldest first. */
    private static int listProductionAccess(ProductionAccess access, String statusText, PrintStream out) {
        AccessStatus status;
        try {
            status = AccessStatus.fromWireName(statusText == null ? "pending" : statusText.strip());
        } catch (IllegalArgumentException e) {
            throw ApiException.invalidField(
                    "validation_failed", "status", "status must be pending, approved or rejected");
        }
        ProductionAccess.Listed listed =
                access.list(status, new PageRequest(1, 100)).block(TIMEOUT);
        out.printf("%-36s %-36s %-9s %-28s %s%n", "REQUEST", "MERCHANT", "STATUS", "CREATED", "NAME / COMPANY / USE");
        for (AccessRequest request : listed.requests()) {
            out.printf(
                    "%-36s %-36s %-9s %-28s %s / %s / %s%n",
                    request.id(),
                    request.merchantId(),
                    request.status().wireName(),
                    request.createdAt(),
                    request.merchantName(),
                    request.company() == null ? "-" : request.company(),
                    request.useCase().replaceAll("\\s+", " "));
        }
        out.println(listed.total() + " " + status.wireName() + " request(s)");
        return OK;
    }

    private static int printDecision(Mono<AccessRequest> decision, PrintStream out) {
        AccessRequest request = decision.block(TIMEOUT);
        out.println("Production access request " + request.id() + " of merchant " + request.merchantId() + " is "
                + request.status().wireName() + (request.reason() == null ? "" : " (" + request.reason() + ")"));
        return OK;
    }

    private static String missingOption(String command, Map<String, String> options) {
        List<String> required = switch (command) {
            case "create-merchant" -> List.of("name", "email");
            case "create-key", "create-publishable-key", "list-keys" -> List.of("merchant");
            case "list-production-access" -> List.of();
            case "approve-production-access", "reject-production-access" -> List.of("request");
            default -> List.of("key");
        };
        return required.stream()
                .filter(option -> !options.containsKey(option))
                .findFirst()
                .orElse(null);
    }

    private static void usage(PrintStream stream) {
        stream.println("""
                Usage: java -jar gateway.jar admin <command> [options] [--spring.property=value …]
                  create-merchant --name <name> --email <email> [--mode test|live]
                                  [--public-key-file <spki.pem>] [--algorithm ed25519|rsa-pss-sha256]
                      creates the merchant, its first API key and a publishable key of the same mode; without
                      --public-key-file an Ed25519 pair is generated and the private key printed once
                  create-key --merchant <id> [--mode test|live] [--public-key-file <spki.pem>] [--algorithm …]
                  create-publishable-key --merchant <id> [--mode test|live]
                      a further publishable key (pk_…), the merchant_key for customer-side code
                  list-keys --merchant <id>
                  revoke-key --key <api_key or publishable_key>
                  list-production-access [--status pending|approved|rejected]
                      merchants' requests for live keys (pending by default), oldest first
                  approve-production-access --request <id>
                      lets the merchant create live keys (and gives it a live publishable key if it has none)
                  reject-production-access --request <id> [--reason <text the merchant sees>]
                The database is the server's: SPRING_R2DBC_URL / SPRING_FLYWAY_URL etc. (see gateway/README.md).""");
    }
}
