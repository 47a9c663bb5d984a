package dev.cryptopay.testsupport.chain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Hash;
import org.web3j.crypto.Keys;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.utils.Numeric;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The operator's command for live networks ({@code dev-chain/deploy-contract.js}) run against the dev chain as an
 * operator runs it against a real one: from a key file with gas only, it deploys the subscription contract, checks
 * what it deployed and prints the services' settings; it refuses another chain than the one named and a currency
 * token without code, sending nothing.
 */
class ContractDeploymentCommandTest {

    private static final DevChain CHAIN = DevChain.shared();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path temp;

    @Test
    void deploysFromAKeyFileChecksTheDeploymentAndPrintsTheSettings() throws Exception {
        Credentials deployer = fundedKey();
        String owner = CHAIN.accounts().get(5);
        Run run = deploy(
                deployer,
                "--chain-id",
                "31337",
                "--owner",
                owner,
                "--currency",
                "USDC=" + DevTokens.USDC.address(),
                "--confirmations",
                "1");

        assertThat(run.exit()).as(run.errors()).isZero();
        JsonNode printed = JSON.readTree(run.output());
        String address = printed.get("address").asString();
        assertThat(CHAIN.web3j()
                        .ethGetCode(address, DefaultBlockParameterName.LATEST)
                        .send()
                        .getCode())
                .as("code at the printed address")
                .hasSizeGreaterThan(2);
        assertThat(Numeric.toBigInt(
                        CHAIN.callRaw(address, FunctionEncoder.encode(new Function("owner", List.of(), List.of())))))
                .isEqualTo(Numeric.toBigInt(owner));
        assertThat(Numeric.toBigInt(CHAIN.callRaw(
                        address,
                        FunctionEncoder.encode(new Function(
                                "currencyToken",
                                List.of(new Bytes32(Hash.sha3("USDC".getBytes(StandardCharsets.UTF_8)))),
                                List.of())))))
                .isEqualTo(Numeric.toBigInt(DevTokens.USDC.address()));
        assertThat(printed.at("/settings/subscriptions-service").asString())
                .isEqualTo("SUBSCRIPTIONS_CONTRACT_31337=" + address);
        assertThat(run.output() + run.errors())
                .as("the key is never printed")
                .doesNotContain(
                        Numeric.toHexStringNoPrefix(deployer.getEcKeyPair().getPrivateKey()));
    }

    @Test
    void refusesAnotherChainAndATokenWithoutCodeSendingNothing() throws Exception {
        Credentials deployer = fundedKey();

        Run otherChain = deploy(deployer, "--chain-id", "11155111", "--confirmations", "1");
        assertThat(otherChain.exit()).isEqualTo(1);
        assertThat(otherChain.errors()).contains("serves chain 31337, not --chain-id 11155111; nothing deployed");

        Run noCode = deploy(
                deployer,
                "--chain-id",
                "31337",
                "--currency",
                "USDC=0x000000000000000000000000000000000000dEaD",
                "--confirmations",
                "1");
        assertThat(noCode.exit()).isEqualTo(1);
        assertThat(noCode.errors()).contains("has no code on chain 31337");

        assertThat(CHAIN.web3j()
                        .ethGetTransactionCount(deployer.getAddress(), DefaultBlockParameterName.LATEST)
                        .send()
                        .getTransactionCount())
                .as("no transaction sent")
                .isZero();
    }

    private record Run(int exit, String output, String errors) {}

    private Run deploy(Credentials deployer, String... arguments) throws IOException, InterruptedException {
        Path keyFile = temp.resolve("deployer-" + deployer.getAddress() + ".key");
        Files.writeString(
                keyFile,
                Numeric.toHexStringWithPrefixZeroPadded(deployer.getEcKeyPair().getPrivateKey(), 64));
        List<String> command = new java.util.ArrayList<>(
                List.of("node", "deploy-contract.js", "--rpc-url", CHAIN.rpcUrl(), "--key-file", keyFile.toString()));
        command.addAll(List.of(arguments));
        Path out = temp.resolve("out.json");
        Path err = temp.resolve("err.txt");
        Process process = new ProcessBuilder(command)
                .directory(devChainDirectory().toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("deploy-contract.js did not finish in 2 minutes: " + Files.readString(err));
        }
        return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    /** A new key holding only gas, as an operator's deployer key should. */
    private static Credentials fundedKey() throws Exception {
        Credentials key = Credentials.create(Keys.createEcKeyPair());
        CHAIN.sendNative(CHAIN.accounts().get(9), key.getAddress(), BigInteger.TEN.pow(18));
        return key;
    }

    private static Path devChainDirectory() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("dev-chain/deploy-contract.js"))) {
                return dir.resolve("dev-chain");
            }
        }
        throw new IllegalStateException("no dev-chain/deploy-contract.js above the working directory");
    }
}
