package dev.cryptopay.deploy;

import dev.cryptopay.deploy.chain.CustomerAccount;
import dev.cryptopay.deploy.sandbox.SandboxWallet;
import dev.cryptopay.testsupport.chain.DevChain;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The start's last steps, around {@link AdminClient#ensureSandboxMerchant}: a gateway you run yourself awaited, the
 * sandbox wallet registered as the merchant's receiving key, and {@code stack.env}.
 */
final class StackSandbox {

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
        if (stack.chain != null) {
            values.put("DEV_CHAIN_RPC_URL", stack.chain.devChain.rpcUrl());
            values.put("DEV_CHAIN_ID", String.valueOf(DevChain.CHAIN_ID));
            values.put("CUSTOMER_ADDRESS", CustomerAccount.ADDRESS);
            values.put("CUSTOMER_PRIVATE_KEY", CustomerAccount.PRIVATE_KEY);
        }
        EnvFile.write(stack.files.stackEnvFile, values);
    }
}
