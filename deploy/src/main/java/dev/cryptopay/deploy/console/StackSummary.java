package dev.cryptopay.deploy.console;

import dev.cryptopay.deploy.SandboxCredentials;
import dev.cryptopay.deploy.sandbox.SandboxWallet;
import java.nio.file.Path;

/**
 * What the summary shows once every service is ready: where to send requests and read the API reference, with which
 * keys, the sandbox wallet, the dev chain (null {@code devChainUrl} when it does not run) and the logs.
 */
public record StackSummary(
        String gatewayUrl,
        String baseUrl,
        SandboxCredentials credentials,
        String adminUrl,
        String adminToken,
        String kafkaBootstrapServers,
        String postgresHost,
        int postgresPort,
        boolean postgresEmbedded,
        Path logDir,
        Path stackEnvFile,
        SandboxWallet wallet,
        Path walletFile,
        String devChainUrl,
        int confirmations) {}
