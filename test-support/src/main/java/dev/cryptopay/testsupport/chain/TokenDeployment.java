package dev.cryptopay.testsupport.chain;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.DynamicArray;
import org.web3j.abi.datatypes.Utf8String;
import org.web3j.abi.datatypes.generated.Int256;
import org.web3j.abi.datatypes.generated.Uint8;
import org.web3j.crypto.ContractUtils;
import org.web3j.crypto.Keys;
import org.web3j.protocol.ObjectMapperFactory;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

/**
 * Deploys the dev chain's contracts on a fresh chain, each at the address other services' configuration names: the
 * subscription contract ({@link DevChain#SUBSCRIPTION_CONTRACT}), the {@link DevTokens} and the
 * {@link DevPriceFeeds}.
 */
final class TokenDeployment {

    private TokenDeployment() {}

    /**
     * Deploys the tokens on a fresh chain (the deployer's nonce is 0); on a chain that has them already (a state
     * file loaded again, a node set up before) it only checks that each has code at its address.
     *
     * @return whether the tokens were deployed now
     * @throws IllegalStateException for a chain that was used but lacks a token: not one of this project's dev chains
     */
    static boolean deployIfFresh(ChainRpc rpc, Path artifact) {
        BigInteger used = rpc.send(
                        rpc.web3j().ethGetTransactionCount(DevChain.DEPLOYER, DefaultBlockParameterName.LATEST))
                .getTransactionCount();
        boolean fresh = used.signum() == 0;
        if (fresh) {
            deploy(rpc, artifact);
        } else {
            requireCode(rpc, used, "the subscription contract", DevChain.SUBSCRIPTION_CONTRACT);
            requireVersion2(rpc);
            for (DevTokens token : DevTokens.values()) {
                requireCode(rpc, used, token + " contract", token.address());
            }
        }
        deployPriceFeedsIfMissing(rpc, artifact.resolveSibling("DevPriceFeed.json"));
        return fresh;
    }

    /**
     * Deploys the {@link DevPriceFeeds} from their owner when it has sent nothing yet (a fresh chain, or a dev chain
     * kept from before the feeds existed: nothing else sends from that account there); otherwise checks each has code.
     */
    static void deployPriceFeedsIfMissing(ChainRpc rpc, Path artifact) {
        String owner = DevPriceFeeds.OWNER;
        BigInteger used = rpc.send(rpc.web3j().ethGetTransactionCount(owner, DefaultBlockParameterName.LATEST))
                .getTransactionCount();
        if (used.signum() != 0) {
            for (DevPriceFeeds feed : DevPriceFeeds.values()) {
                requireCode(rpc, used, feed.description() + " price feed", feed.address());
            }
            return;
        }
        String bytecode = bytecode(artifact);
        for (DevPriceFeeds feed : DevPriceFeeds.values()) {
            String constructorArguments = FunctionEncoder.encodeConstructor(List.of(
                    new Uint8(BigInteger.valueOf(DevPriceFeeds.DECIMALS)),
                    new Utf8String(feed.description()),
                    new Int256(feed.initialAnswer())));
            deployAt(
                    rpc,
                    owner,
                    BigInteger.valueOf(feed.deploymentNonce()),
                    bytecode + constructorArguments,
                    feed.address(),
                    feed.description() + " price feed");
        }
    }

    /**
     * A dev chain kept from before the subscription contract's version 2 holds version 1 at its address, which cannot
     * be replaced there (the deployer's nonce 0 is used): it is refused with what to do. Version 2 answers
     * {@code MIN_INTERVAL()}; version 1 has no such function.
     */
    private static void requireVersion2(ChainRpc rpc) {
        var call = org.web3j.protocol.core.methods.request.Transaction.createEthCallTransaction(
                DevChain.DEPLOYER,
                DevChain.SUBSCRIPTION_CONTRACT,
                FunctionEncoder.encode(new org.web3j.abi.datatypes.Function("MIN_INTERVAL", List.of(), List.of())));
        String value;
        try {
            value = rpc.send(rpc.web3j().ethCall(call, DefaultBlockParameterName.LATEST))
                    .getValue();
        } catch (IllegalStateException reverted) {
            value = null;
        }
        if (value == null || value.length() <= 2) {
            throw new IllegalStateException("this dev chain holds version 1 of the subscription contract at "
                    + DevChain.SUBSCRIPTION_CONTRACT + ", which cannot be replaced at that address: start a new dev"
                    + " chain (./run-local --reset, or delete the chain's state file)");
        }
    }

    private static void requireCode(ChainRpc rpc, BigInteger used, String what, String address) {
        String code = rpc.send(rpc.web3j().ethGetCode(address, DefaultBlockParameterName.LATEST))
                .getCode();
        if (code == null || code.length() <= 2) {
            throw new IllegalStateException("the chain was used (the sender's nonce is " + used + ") but has no "
                    + what + " at " + address + ": it is not a dev chain set up by DevChain (chains made before the"
                    + " subscription contract existed have none); start from a fresh chain (delete its state file)");
        }
    }

    /**
     * From {@link DevChain#DEPLOYER}: {@code CryptopaySubscriptions} at nonce 0 (owned by the deployer, value plans in
     * each token's code billing that token), then {@code TestToken} for each of the {@link DevTokens} in order, at
     * nonces 1 to 7, each checked against the address derived from the deployer and the nonce.
     *
     * @param artifact {@code build/TestToken.json} from {@code dev-chain/compile.js};
     *     {@code build/CryptopaySubscriptions.json} is read beside it
     */
    static void deploy(ChainRpc rpc, Path artifact) {
        String deployer = DevChain.DEPLOYER;
        BigInteger used = rpc.send(rpc.web3j().ethGetTransactionCount(deployer, DefaultBlockParameterName.LATEST))
                .getTransactionCount();
        if (used.signum() != 0) {
            throw new IllegalStateException("the deployer's nonce is " + used + " on a fresh chain, not 0");
        }
        // The tokens' addresses are known before they exist: they follow from the deployer and their nonces.
        String subscriptionArguments = FunctionEncoder.encodeConstructor(List.of(
                new Address(deployer),
                new DynamicArray<>(
                        Utf8String.class,
                        java.util.Arrays.stream(DevTokens.values())
                                .map(token -> new Utf8String(token.code()))
                                .toList()),
                new DynamicArray<>(
                        Address.class,
                        java.util.Arrays.stream(DevTokens.values())
                                .map(token -> new Address(token.address()))
                                .toList())));
        deployAt(
                rpc,
                deployer,
                BigInteger.ZERO,
                bytecode(DevChainFiles.subscriptionArtifact(artifact)) + subscriptionArguments,
                DevChain.SUBSCRIPTION_CONTRACT,
                "CryptopaySubscriptions");
        String bytecode = bytecode(artifact);
        for (DevTokens token : DevTokens.values()) {
            BigInteger nonce = BigInteger.valueOf(token.deploymentNonce());
            String constructorArguments = FunctionEncoder.encodeConstructor(List.of(
                    new Utf8String(token.tokenName()),
                    new Utf8String(token.code()),
                    new Uint8(BigInteger.valueOf(token.decimals()))));
            deployAt(rpc, deployer, nonce, bytecode + constructorArguments, token.address(), token.toString());
        }
    }

    private static void deployAt(
            ChainRpc rpc, String deployer, BigInteger nonce, String code, String configured, String what) {
        TransactionReceipt receipt = rpc.transact(deployer, nonce, null, BigInteger.ZERO, code);
        String expected = Keys.toChecksumAddress(ContractUtils.generateContractAddress(deployer, nonce));
        if (!expected.equalsIgnoreCase(receipt.getContractAddress()) || !expected.equals(configured)) {
            throw new IllegalStateException(what + " was deployed at " + receipt.getContractAddress() + "; expected "
                    + expected + " (" + deployer + " nonce " + nonce + "), configured " + configured);
        }
    }

    static String bytecode(Path artifact) {
        try {
            String bytecode = ObjectMapperFactory.getObjectMapper()
                    .readTree(artifact.toFile())
                    .path("bytecode")
                    .asText();
            if (!bytecode.startsWith("0x") || bytecode.length() < 4) {
                throw new IllegalStateException("no bytecode in " + artifact);
            }
            return bytecode;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + artifact, e);
        }
    }
}
