package dev.cryptopay.bench.chain;

import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.core.Request;
import org.web3j.protocol.core.Response;
import org.web3j.protocol.core.methods.request.Transaction;
import org.web3j.protocol.core.methods.response.VoidResponse;
import org.web3j.protocol.http.HttpService;

/**
 * Blocks for the benchmark on the dev chain: automatic mining off, each block's transactions sent, then the block
 * mined ({@code anvil_mine}), so a block holds several transfers, as on a real network.
 */
final class ChainTraffic {

    private static final BigInteger MINT_GAS = BigInteger.valueOf(120_000);
    private static final BigInteger TRANSFER_GAS = BigInteger.valueOf(21_000);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final DevChain chain;
    private final HttpService rpc;
    private final Web3j web3j;

    ChainTraffic(DevChain chain) {
        this.chain = chain;
        this.rpc = new HttpService(chain.rpcUrl());
        this.web3j = Web3j.build(rpc);
    }

    /**
     * Mines {@code count} blocks, each with {@code noisePerBlock} token mints to fresh addresses (Transfer logs of the
     * followed tokens that go to nobody watched), spreading a 10 USDC mint to each of {@code tokenPayees} and a 0.01
     * ETH transfer to each of {@code nativePayees} evenly over them. Every transaction must succeed.
     */
    void blocks(int count, int noisePerBlock, List<String> tokenPayees, List<String> nativePayees) {
        String minter = chain.accounts().get(2);
        String payer = chain.accounts().get(1);
        DevTokens[] tokens = DevTokens.values();
        int tokenEvery = count / tokenPayees.size();
        int nativeEvery = count / nativePayees.size();
        List<String> sent = new ArrayList<>();
        automine(false);
        try {
            for (int block = 0; block < count; block++) {
                for (int i = 0; i < noisePerBlock; i++) {
                    DevTokens token = tokens[(block * noisePerBlock + i) % tokens.length];
                    sent.add(mint(minter, token, "0x" + HexFormat.of().formatHex(fresh()), BigInteger.ONE));
                }
                if (block % tokenEvery == 0 && block / tokenEvery < tokenPayees.size()) {
                    sent.add(mint(minter, DevTokens.USDC, tokenPayees.get(block / tokenEvery), BigInteger.TEN.pow(7)));
                }
                if (block % nativeEvery == nativeEvery / 2 && block / nativeEvery < nativePayees.size()) {
                    sent.add(send(Transaction.createEtherTransaction(
                            payer,
                            null,
                            null,
                            TRANSFER_GAS,
                            nativePayees.get(block / nativeEvery),
                            BigInteger.TEN.pow(16))));
                }
                chain.mine(1);
            }
        } finally {
            automine(true);
        }
        for (String tx : sent) {
            boolean succeeded =
                    chain.receipt(tx).map(receipt -> receipt.isStatusOK()).orElse(false);
            if (!succeeded) {
                throw new IllegalStateException("benchmark transaction " + tx + " was not mined or failed");
            }
        }
    }

    private String mint(String from, DevTokens token, String to, BigInteger units) {
        Function mint = new Function("mint", List.of(new Address(to), new Uint256(units)), List.of());
        return send(Transaction.createFunctionCallTransaction(
                from, null, null, MINT_GAS, token.address(), FunctionEncoder.encode(mint)));
    }

    private String send(Transaction transaction) {
        try {
            var reply = web3j.ethSendTransaction(transaction).send();
            if (reply.hasError()) {
                throw new IllegalStateException(
                        "eth_sendTransaction: " + reply.getError().getMessage());
            }
            return reply.getTransactionHash();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void automine(boolean on) {
        try {
            Response<?> reply = new Request<>("evm_setAutomine", List.of(on), rpc, VoidResponse.class).send();
            if (reply.hasError()) {
                throw new IllegalStateException(
                        "evm_setAutomine: " + reply.getError().getMessage());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] fresh() {
        byte[] address = new byte[20];
        RANDOM.nextBytes(address);
        return address;
    }
}
