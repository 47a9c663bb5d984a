package dev.cryptopay.testsupport.chain;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Utf8String;
import org.web3j.abi.datatypes.generated.Uint8;
import org.web3j.crypto.ContractUtils;
import org.web3j.crypto.Keys;
import org.web3j.protocol.ObjectMapperFactory;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

/** Deploys the {@link DevTokens} on a fresh chain, each at the address other services' configuration names. */
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
        if (used.signum() == 0) {
            deploy(rpc, artifact);
            return true;
        }
        for (DevTokens token : DevTokens.values()) {
            String code = rpc.send(rpc.web3j().ethGetCode(token.address(), DefaultBlockParameterName.LATEST))
                    .getCode();
            if (code == null || code.length() <= 2) {
                throw new IllegalStateException("the chain was used (the deployer's nonce is " + used + ") but has no "
                        + token + " contract at " + token.address() + ": it is not a dev chain set up by DevChain;"
                        + " start from a fresh chain (delete its state file)");
            }
        }
        return false;
    }

    /**
     * From {@link DevChain#DEPLOYER}: a zero-value transfer to itself at nonce 0 (reserved for the subscription
     * contract), then {@code TestToken} for each of the {@link DevTokens} in order, at nonces 1 to 7, each checked
     * against the address derived from the deployer and the nonce.
     *
     * @param artifact {@code build/TestToken.json} from {@code dev-chain/compile.js}
     */
    static void deploy(ChainRpc rpc, Path artifact) {
        String deployer = DevChain.DEPLOYER;
        BigInteger used = rpc.send(rpc.web3j().ethGetTransactionCount(deployer, DefaultBlockParameterName.LATEST))
                .getTransactionCount();
        if (used.signum() != 0) {
            throw new IllegalStateException("the deployer's nonce is " + used + " on a fresh chain, not 0");
        }
        rpc.transact(deployer, BigInteger.ZERO, deployer, BigInteger.ZERO, null);
        String bytecode = bytecode(artifact);
        for (DevTokens token : DevTokens.values()) {
            BigInteger nonce = BigInteger.valueOf(token.deploymentNonce());
            String constructorArguments = FunctionEncoder.encodeConstructor(List.of(
                    new Utf8String(token.tokenName()),
                    new Utf8String(token.code()),
                    new Uint8(BigInteger.valueOf(token.decimals()))));
            TransactionReceipt receipt =
                    rpc.transact(deployer, nonce, null, BigInteger.ZERO, bytecode + constructorArguments);
            String expected = Keys.toChecksumAddress(ContractUtils.generateContractAddress(deployer, nonce));
            if (!expected.equalsIgnoreCase(receipt.getContractAddress()) || !expected.equals(token.address())) {
                throw new IllegalStateException(token + " was deployed at " + receipt.getContractAddress()
                        + "; expected " + expected + " (deployer nonce " + nonce + "), configured " + token.address());
            }
        }
    }

    private static String bytecode(Path artifact) {
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
