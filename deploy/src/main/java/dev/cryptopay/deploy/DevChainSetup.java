package dev.cryptopay.deploy;

import dev.cryptopay.deploy.chain.CustomerAccount;
import dev.cryptopay.testsupport.chain.DevChain;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * The one-shot setup of docker compose's dev chain ({@code dev-chain-setup}, image
 * {@code deploy/docker/dev-chain-setup.Dockerfile}): on the anvil at {@code DEV_CHAIN_RPC_URL} it deploys the test
 * tokens exactly as the local stack does (test-support's {@link DevChain#attach}: nonce 0 burnt, then the seven
 * tokens in order, so at the same addresses) and mints the customer account every token. On a chain that has them
 * it changes nothing, so running it again is harmless. Exit status 0 when the chain is ready, 1 otherwise.
 */
public final class DevChainSetup {

    static final String DEFAULT_RPC_URL = "http://anvil:8545";

    /** Where the image keeps {@code build/TestToken.json} of {@code dev-chain/compile.js}. */
    static final String DEFAULT_ARTIFACT = "/app/TestToken.json";

    private DevChainSetup() {}

    public static void main(String[] args) {
        DevPay.quietLogging();
        System.exit(run(System.getenv(), System.out));
    }

    static int run(Map<String, String> env, PrintStream out) {
        String rpcUrl = env.getOrDefault("DEV_CHAIN_RPC_URL", DEFAULT_RPC_URL);
        Path artifact = Path.of(env.getOrDefault("DEV_CHAIN_TOKEN_ARTIFACT", DEFAULT_ARTIFACT));
        try (DevChain chain = DevChain.attach(rpcUrl, artifact)) {
            if (chain.deployedTokens()) {
                CustomerAccount.fund(chain);
                out.println("[dev-chain-setup] " + rpcUrl + ": test tokens deployed, customer "
                        + CustomerAccount.ADDRESS + " funded with " + CustomerAccount.TOKEN_AMOUNT + " of each");
            } else {
                out.println("[dev-chain-setup] " + rpcUrl + ": the test tokens are there already; nothing to do");
            }
            return 0;
        } catch (RuntimeException e) {
            out.println("[dev-chain-setup] " + rpcUrl + ": " + e.getMessage());
            return 1;
        }
    }
}
