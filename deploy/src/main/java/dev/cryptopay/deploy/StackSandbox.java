package dev.cryptopay.deploy;

import dev.cryptopay.deploy.chain.CustomerAccount;
import dev.cryptopay.deploy.sandbox.SandboxWallet;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The start's last steps, around {@link AdminClient#ensureSandboxMerchant}: a gateway you run yourself awaited, the
 * sandbox wallet registered as the merchant's receiving key, the example subscription plan, and {@code stack.env}.
 */
final class StackSandbox {

    static final String EXAMPLE_PLAN = "Example monthly plan";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The dev customer's address: the example invitation is e-mailed there (./dev-mail shows it). */
    static final String DEV_CUSTOMER_EMAIL = "dev-customer@example.test";

    /** The example plan and the dev customer's invitation to it: its {@code subscription_link_url}. */
    record ExamplePlan(String planId, String invitationUrl) {}

    private StackSandbox() {}

    /** The sandbox merchant is created through the gateway, so a gateway you run yourself is waited for. */
    static void awaitGatewayRunByYou(LocalStack stack) {
        if (!stack.options.skipped.contains(StackService.GATEWAY)) {
            return;
        }
        long timeout = stack.options.readyTimeout.toSeconds();
        String url = stack.gatewayUrl() + "/actuator/health/readiness";
        stack.console.say("waiting up to " + timeout + " s for the gateway you run yourself on port "
                + stack.ports.port(StackPort.GATEWAY));
        String lastAnswer = ServiceProcess.awaitUp(url, stack.options.readyTimeout, stack::isClosed, null);
        if (lastAnswer != null) {
            throw new StackStartException("the gateway you run yourself (STACK_SKIP) was not ready at " + url
                    + " within " + timeout + " s (last answer: " + lastAnswer + "). Start it with the settings the "
                    + "launcher wrote, or allow more time with STACK_READY_TIMEOUT=<seconds>.");
        }
    }

    /**
     * Registers the wallet's receiving key for the sandbox merchant: 201 the first time, 200 on later starts. Anything
     * else is said with the command to retry; the stack runs on, its links without a deposit address.
     */
    static void registerWallet(LocalStack stack, SandboxWallet wallet) {
        String body = "{\"extended_public_key\":\"" + wallet.extendedPublicKey() + "\"}";
        String problem;
        try {
            HttpResponse<String> response = stack.client().send("PUT", SandboxWallet.RECEIVING_KEY_PATH, body);
            if (response.statusCode() == 200 || response.statusCode() == 201) {
                stack.console.say("sandbox wallet " + wallet.firstAddress() + " "
                        + (response.statusCode() == 201 ? "registered" : "registered again") + " as the receiving key "
                        + "(mnemonic in " + StackConsole.path(stack.files.sandboxWalletFile) + ")");
                return;
            }
            problem = "HTTP " + response.statusCode() + " " + response.body();
        } catch (UncheckedIOException e) {
            problem = e.getMessage();
        }
        stack.console.say("the sandbox wallet is not registered as the receiving key (" + problem + "); links get "
                + "no deposit address until it is: ./signed-request PUT /payment_links/receiving_key '" + body + "'");
    }

    /**
     * 10 USDC of the dev chain every 30 days to the sandbox wallet's treasury address, 3 days' grace, cancelled after 3
     * misses in a row; signed by its account 0.
     */
    private static final String EXAMPLE_TERMS = """
            {"merchant":"%1$s","destination":"%5$s","token":"%2$s","amount":"10000000","interval":2592000,\
            "max_arrears":259200,"auto_cancel_after_missed":3,"name":"%3$s","description":"Made by ./run-local \
            to try subscriptions on the dev chain"%4$s}""";

    /**
     * The example plan, signed by the sandbox wallet's account 0: made on the first start, found by its name later; then
     * a new invitation of the dev customer. Null when a step failed: said with how to do it by hand; the stack runs on.
     */
    static ExamplePlan ensureExamplePlan(LocalStack stack, SandboxWallet wallet) {
        SignedClient api = stack.client();
        String address = wallet.firstAddress();
        String treasury = wallet.treasuryAddress();
        String terms = EXAMPLE_TERMS.formatted(address, DevTokens.USDC.address(), EXAMPLE_PLAN, "", treasury);
        String planId = null;
        try {
            for (JsonNode plan :
                    call(api, "GET", "/subscriptions/plans/?search=Example&page_size=100", null, "plans")) {
                if (EXAMPLE_PLAN.equals(plan.get("name").asString())
                        && "active".equals(plan.get("status").asString())
                        && address.equals(plan.get("merchant_address").asString())
                        // Older sandboxes' plans paid to account 0, the first link's deposit address: made again.
                        && treasury.equals(plan.get("destination_address").asString())) {
                    planId = plan.get("id").asString();
                }
            }
            boolean created = planId == null;
            if (created) {
                JsonNode typedData = call(api, "POST", "/subscriptions/plans/typed-data", terms, "typed_data");
                String signature = ",\"plan_nonce\":"
                        + typedData.get("message").get("planNonce").asString() + ",\"merchant_sig\":\""
                        + wallet.signTypedData(JSON.writeValueAsString(typedData)) + "\"";
                String signed =
                        EXAMPLE_TERMS.formatted(address, DevTokens.USDC.address(), EXAMPLE_PLAN, signature, treasury);
                planId =
                        call(api, "POST", "/subscriptions/plans/", signed, "id").asString();
            }
            String invite = "{\"subscription_plan_id\":\"" + planId + "\",\"customer_name\":\"Dev customer\","
                    + "\"customer_email\":\"" + DEV_CUSTOMER_EMAIL + "\"}";
            String url = call(api, "POST", "/subscriber/", invite, "subscription_link_url")
                    .asString();
            stack.console.say("example plan " + planId + (created ? " created" : " reused") + " (\"" + EXAMPLE_PLAN
                    + "\", 10 USDC every 30 days to the treasury address, signed by the sandbox wallet); the dev customer is "
                    + "invited to it (the invitation is e-mailed to " + DEV_CUSTOMER_EMAIL + ": ./dev-mail)");
            return new ExamplePlan(planId, url);
        } catch (IOException | RuntimeException e) {
            String byHand = planId == null
                    ? "sign the typed_data of ./signed-request POST /subscriptions/plans/typed-data '" + terms
                            + "' with the sandbox wallet's account 0 and POST it as subscriptions-service/README.md says"
                    : "./signed-request POST /subscriber/ '{\"subscription_plan_id\":\"" + planId + "\"}'";
            stack.console.say("no example plan or invitation (" + e.getMessage() + "); by hand: " + byHand);
            return null;
        }
    }

    /** A member of a signed request's 2xx answer; any other answer is an exception saying what came. */
    private static JsonNode call(SignedClient api, String method, String path, String body, String member) {
        HttpResponse<String> response = api.send(method, path, body);
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException(
                    method + " " + path + " answered HTTP " + response.statusCode() + " " + response.body());
        }
        return JSON.readTree(response.body()).get(member);
    }

    static void writeStackEnv(LocalStack stack, SandboxWallet wallet) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("BASE_URL", stack.baseUrl());
        values.put("API_KEY", stack.credentials.apiKey());
        values.put("PRIVATE_KEY", stack.credentials.privateKey());
        values.put("ADMIN_URL", stack.adminUrl());
        values.put("ADMIN_TOKEN", stack.adminToken());
        values.put("PUBLISHABLE_KEY", stack.credentials.publishableKey());
        values.put("SANDBOX_WALLET_ADDRESS", wallet.firstAddress());
        values.put("SANDBOX_WALLET_XPUB", wallet.extendedPublicKey());
        values.put("SANDBOX_TREASURY_ADDRESS", wallet.treasuryAddress());
        if (stack.chain != null) {
            values.put("DEV_CHAIN_RPC_URL", stack.chain.devChain.rpcUrl());
            values.put("DEV_CHAIN_ID", String.valueOf(DevChain.CHAIN_ID));
            values.put("CUSTOMER_ADDRESS", CustomerAccount.ADDRESS);
            values.put("CUSTOMER_PRIVATE_KEY", CustomerAccount.PRIVATE_KEY);
            if (stack.examplePlan != null) {
                values.put("EXAMPLE_PLAN_ID", stack.examplePlan.planId());
                values.put("EXAMPLE_INVITATION_URL", stack.examplePlan.invitationUrl());
            }
        }
        EnvFile.write(stack.files.stackEnvFile, values);
    }
}
