package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static dev.cryptopay.e2e.SuiteStack.httpGet;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.client.CryptoPayClient;
import dev.cryptopay.client.invoker.ApiClient;
import dev.cryptopay.client.subscriptions.model.PlanTermsRequest;
import dev.cryptopay.client.subscriptions.model.TypedDataResponse;
import dev.cryptopay.deploy.LocalStack;
import dev.cryptopay.deploy.SandboxCredentials;
import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Sign;
import org.web3j.utils.Numeric;
import tools.jackson.databind.JsonNode;

/**
 * The Postman collection and environment merchants import ({@code postman/}): newman runs the whole collection against
 * the running suite with a new merchant's keys, every request's tests passing; the collection has a request for every
 * route of the API description; and its signing script embeds the Ed25519 library unchanged.
 */
class PostmanCollectionEndToEndTest {

    private static final Path POSTMAN = Path.of("postman");
    private static final Path COLLECTION = POSTMAN.resolve("cryptopay.postman_collection.json");
    private static final Path ENVIRONMENT = POSTMAN.resolve("cryptopay.postman_environment.json");
    private static final Path REPORT = Path.of("target", "newman", "report.json");
    /** The dev chain's first account: a public development key, standing in for the merchant's wallet. */
    private static final String MERCHANT_WALLET_KEY =
            "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

    @Test
    void newmanRunsTheWholeCollectionAgainstTheSuiteWithEveryTestPassing() throws Exception {
        NodeTools.installPackages(POSTMAN, "newman");
        List<JsonNode> requests = requests(collection());
        LocalStack stack = SuiteStack.get();
        SandboxCredentials merchant = stack.newMerchant("Postman Shop", Mode.TEST);
        Map<String, String> environment = environmentDefaults();
        String planNonce = Long.toString(ThreadLocalRandom.current().nextLong(1, 1L << 52));

        try (WebhookReceiver receiver = new WebhookReceiver()) {
            Map<String, String> values = new LinkedHashMap<>();
            values.put("baseUrl", stack.baseUrl());
            values.put("gatewayUrl", stack.gatewayUrl());
            values.put("apiKey", merchant.apiKey());
            values.put("privateKey", merchant.privateKey());
            values.put("publishableKey", merchant.publishableKey());
            values.put("receivingKey", NodeTools.freshReceivingKey());
            values.put("webhookUrl", receiver.url());
            values.put("planNonce", planNonce);
            // The customer's wallet sends its approve and subscribe transactions to the dev chain.
            values.put(
                    "devChainUrl",
                    stack.devChain()
                            .orElseThrow(() -> new AssertionError("the suite runs with its dev chain"))
                            .rpcUrl());
            Map<String, String> resolved = new LinkedHashMap<>(environment);
            resolved.putAll(values);
            values.put("merchantSig", signPlan(requests, stack, merchant, resolved));

            List<String> command = new ArrayList<>(List.of(
                    "node",
                    "node_modules/newman/bin/newman.js",
                    "run",
                    COLLECTION.getFileName().toString(),
                    "--environment",
                    ENVIRONMENT.getFileName().toString(),
                    "--reporters",
                    "cli,json",
                    "--reporter-json-export",
                    REPORT.toAbsolutePath().toString(),
                    "--color",
                    "off"));
            values.forEach((name, value) -> command.addAll(List.of("--env-var", name + "=" + value)));
            Files.createDirectories(REPORT.getParent());
            Path log = Files.createTempFile("newman", ".log");
            Process newman = new ProcessBuilder(command)
                    .directory(POSTMAN.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            if (!newman.waitFor(3, TimeUnit.MINUTES)) {
                newman.destroyForcibly();
                throw new AssertionError("newman did not finish in 3 minutes: " + Files.readString(log));
            }
            assertThat(newman.exitValue()).as(Files.readString(log)).isZero();

            JsonNode run = JSON.readTree(Files.readString(REPORT)).get("run");
            assertThat(run.get("failures").size()).as(Files.readString(log)).isZero();
            assertThat(run.at("/stats/assertions/failed").asInt()).isZero();
            assertThat(run.at("/stats/assertions/total").asInt()).isGreaterThan(100);
            Set<String> executed = new TreeSet<>();
            run.get("executions")
                    .forEach(
                            execution -> executed.add(execution.at("/item/name").asString()));
            assertThat(executed).as("every request ran").hasSize(requests.size());
            assertThat(receiver.received())
                    .as("the collection's endpoint got the payment.created of its link")
                    .anySatisfy(delivery -> assertThat(delivery.bodyText()).contains("payment.created"));
        }
    }

    @Test
    void theCollectionHasARequestForEveryRouteOfTheApiDescription() {
        String root = SuiteStack.get().gatewayUrl();
        JsonNode description = JSON.readTree(httpGet(root + "/openapi.json").body());
        Set<String> routes = new TreeSet<>();
        description.get("paths").properties().forEach(path -> {
            if (!path.getKey().endsWith("/")) { // the trailing-slash spellings answer as the routes without it
                path.getValue().propertyNames().stream()
                        .filter(method -> Set.of("get", "post", "put", "delete").contains(method))
                        .forEach(method -> routes.add(method.toUpperCase() + " " + template(path.getKey())));
            }
        });
        Set<String> requested = new TreeSet<>();
        for (JsonNode request : requests(collection())) {
            String url = request.at("/request/url")
                    .asString()
                    .replaceFirst("^\\{\\{(baseUrl|gatewayUrl)}}", "")
                    .replaceFirst("\\?.*$", "");
            requested.add(request.at("/request/method").asString() + " " + template(url));
        }

        assertThat(routes).hasSizeGreaterThan(40);
        assertThat(requested).containsAll(routes);
    }

    @Test
    void theSigningScriptEmbedsTweetNaclUnchanged() throws Exception {
        NodeTools.installPackages(POSTMAN, "newman");
        String library = Files.readString(
                        POSTMAN.resolve("node_modules/tweetnacl/nacl-fast.min.js"), StandardCharsets.UTF_8)
                .strip();
        List<String> script = new ArrayList<>();
        collection().get("event").forEach(event -> {
            if (event.get("listen").asString().equals("prerequest")) {
                event.at("/script/exec").forEach(line -> script.add(line.asString()));
            }
        });

        assertThat(script).contains(library);
        assertThat(script.stream().filter(line -> line.contains("nacl.sign"))).hasSize(2);
    }

    /** Signs the collection's plan terms with the merchant wallet, as a merchant does before "Create a plan". */
    private static String signPlan(
            List<JsonNode> requests, LocalStack stack, SandboxCredentials merchant, Map<String, String> values)
            throws Exception {
        String terms = requests.stream()
                .filter(request -> request.get("name").asString().equals("Plan typed data"))
                .findFirst()
                .orElseThrow()
                .at("/request/body/raw")
                .asString();
        for (Map.Entry<String, String> value : values.entrySet()) {
            terms = terms.replace("{{" + value.getKey() + "}}", value.getValue());
        }
        CryptoPayClient client = CryptoPayClient.builder()
                .baseUrl(stack.baseUrl())
                .apiKey(merchant.apiKey())
                .privateKey(merchant.privateKey())
                .build();
        TypedDataResponse typed = client.plans()
                .planTypedData(ApiClient.createDefaultObjectMapper().readValue(terms, PlanTermsRequest.class));
        Sign.SignatureData signature = Sign.signTypedData(
                ApiClient.createDefaultObjectMapper().writeValueAsString(typed.getTypedData()),
                ECKeyPair.create(Numeric.toBigInt(MERCHANT_WALLET_KEY)));
        return Numeric.toHexString(signature.getR())
                + Numeric.toHexStringNoPrefix(signature.getS())
                + Numeric.toHexStringNoPrefix(signature.getV());
    }

    private static Map<String, String> environmentDefaults() throws IOException {
        Map<String, String> values = new LinkedHashMap<>();
        JSON.readTree(Files.readString(ENVIRONMENT))
                .get("values")
                .forEach(value -> values.put(
                        value.get("key").asString(), value.get("value").asString()));
        return values;
    }

    private static JsonNode collection() {
        try {
            return JSON.readTree(Files.readString(COLLECTION));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Every request of the collection, its folders flattened. */
    private static List<JsonNode> requests(JsonNode collection) {
        List<JsonNode> requests = new ArrayList<>();
        collection.get("item").forEach(folder -> folder.get("item").forEach(requests::add));
        return requests;
    }

    /** A path with every parameter, {@code {id}} or {@code {{linkId}}}, written as {@code {}}. */
    private static String template(String path) {
        return path.replaceAll("\\{\\{[^}]+}}", "{}").replaceAll("\\{[^}]+}", "{}");
    }
}
