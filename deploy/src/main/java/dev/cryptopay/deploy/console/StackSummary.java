package dev.cryptopay.deploy.console;

import dev.cryptopay.deploy.SandboxCredentials;
import java.nio.file.Path;

/** What the summary shows once every service is ready: where to send requests, with which keys, and the logs. */
public record StackSummary(
        String baseUrl,
        SandboxCredentials credentials,
        String adminUrl,
        String adminToken,
        String kafkaBootstrapServers,
        String postgresHost,
        int postgresPort,
        boolean postgresEmbedded,
        Path logDir,
        Path stackEnvFile) {}
