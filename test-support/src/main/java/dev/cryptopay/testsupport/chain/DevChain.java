package dev.cryptopay.testsupport.chain;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.FunctionReturnDecoder;
import org.web3j.abi.TypeReference;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.Type;
import org.web3j.abi.datatypes.generated.Int256;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.crypto.Keys;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;

/**
 * A real local EVM chain for tests: anvil (from {@code dev-chain/node_modules}, installed with npm on first use)
 * on a free port of 127.0.0.1, chain id 31337, the ten well-known dev accounts of the mnemonic {@code test test ...
 * junk} (unlocked, 10000 ETH each), a block mined per transaction, and the seven {@link DevTokens} deployed at their
 * fixed addresses. All methods block until the node has answered; failures are exceptions.
 *
 * <p>Use {@link #shared()} (one chain per JVM); a test that takes the chain down or rewrites its history on purpose
 * starts its own with {@code new DevChain().start()} and closes it. A chain that outlives its process (the local
 * stack's) gets a fixed {@link #port(int)} and a {@link #stateIn(Path) state directory}; {@link #attach} uses a node
 * someone else started (a container).
 */
public final class DevChain implements AutoCloseable {

    /** The chain id of every dev chain (anvil's default). */
    public static final long CHAIN_ID = AnvilNode.CHAIN_ID;

    /** Dev account 0, which deploys the subscription contract (nonce 0) and the tokens (nonces 1 to 7). */
    public static final String DEPLOYER = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

    /**
     * {@code CryptopaySubscriptions} ({@code dev-chain/contracts/}), owned by {@link #DEPLOYER}, at the address its
     * nonce 0 gives: the EIP-712 {@code verifyingContract} of the dev chain's subscription plans.
     */
    public static final String SUBSCRIPTION_CONTRACT = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

    private static final Duration ATTACH_TIMEOUT = Duration.ofSeconds(60);
    private static DevChain shared;

    private int requestedPort;
    private Path stateDir;
    private DevChainNode node;
    private String rpcUrl;
    private ChainRpc rpc;
    private boolean deployedTokens;
    private Path buildDir;
    private List<String> accounts;

    /** A chain not started yet; see {@link #start()}. */
    public DevChain() {}

    /** The chain shared by every test of this JVM: started on first use, killed when the JVM exits. */
    public static synchronized DevChain shared() {
        if (shared == null) {
            DevChain chain = new DevChain().start();
            Runtime.getRuntime().addShutdownHook(new Thread(chain::close, "dev-chain-shutdown"));
            System.out.println("[test-support] dev chain for tests: anvil at " + chain.rpcUrl());
            shared = chain;
        }
        return shared;
    }

    /** Listen on this port of 127.0.0.1 rather than a free one (0, the default); set before {@link #start()}. */
    public synchronized DevChain port(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("not a port: " + port);
        }
        requireNotStarted();
        this.requestedPort = port;
        return this;
    }

    /**
     * Keep the chain in this directory ({@code state.json}, {@code anvil.log}) rather than a temporary one: a start on
     * a directory that holds a state continues that chain (blocks, receipts, balances, contracts; the tokens are not
     * deployed again, see {@link #deployedTokens()}). anvil writes the state every few seconds and when {@link #close()}
     * stops it cleanly; the directory is kept. Set before {@link #start()}.
     */
    public synchronized DevChain stateIn(Path directory) {
        requireNotStarted();
        this.stateDir = directory.toAbsolutePath();
        return this;
    }

    /**
     * Prepares {@code dev-chain/} (npm install, compile), starts anvil and, on a new chain, deploys the subscription
     * contract (the deployer's nonce 0), then the tokens at nonces 1 to 7.
     *
     * @return this chain
     * @throws IllegalStateException if anything is missing or fails (never skipped silently)
     */
    public synchronized DevChain start() {
        requireNotStarted();
        DevChainFiles files = DevChainFiles.prepare();
        buildDir = files.tokenArtifact().getParent();
        node = DevChainNode.start(files, requestedPort, stateDir);
        rpc = node.rpc();
        rpcUrl = "http://127.0.0.1:" + node.port();
        try {
            deployedTokens = TokenDeployment.deployIfFresh(rpc, files.tokenArtifact());
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        return this;
    }

    /**
     * A node that runs already (a container; chain id 31337, anvil's dev accounts unlocked): waits up to 60 s for it
     * to answer, then deploys the tokens unless it has them. {@link #close()} only lets go of the connection.
     *
     * @param tokenArtifact {@code build/TestToken.json} of {@code dev-chain/compile.js}, read only on a new chain
     */
    public static DevChain attach(String rpcUrl, Path tokenArtifact) {
        DevChain chain = new DevChain();
        chain.rpcUrl = rpcUrl;
        chain.rpc = new ChainRpc(rpcUrl);
        chain.buildDir = tokenArtifact.getParent();
        try {
            chain.rpc.awaitAnswer(ATTACH_TIMEOUT);
            chain.deployedTokens = TokenDeployment.deployIfFresh(chain.rpc, tokenArtifact);
        } catch (RuntimeException e) {
            chain.close();
            throw e;
        }
        return chain;
    }

    /** Whether this start deployed the tokens (a new chain) rather than found them (a chain that existed). */
    public boolean deployedTokens() {
        return deployedTokens;
    }

    /** The pid of the anvil process this chain started. */
    public synchronized long pid() {
        if (node == null) {
            throw new IllegalStateException("this DevChain runs no anvil process of its own");
        }
        return node.pid();
    }

    /** The JSON-RPC endpoint, e.g. {@code http://127.0.0.1:41234}. */
    public String rpcUrl() {
        return rpcUrl;
    }

    /** The chain id the node reports ({@code eth_chainId}): 31337. */
    public long chainId() {
        return rpc.send(rpc.web3j().ethChainId()).getChainId().longValueExact();
    }

    /** A web3j client of this chain, for anything the methods here do not cover. */
    public Web3j web3j() {
        return rpc.web3j();
    }

    /** The node's ten unlocked dev accounts ({@code eth_accounts}), EIP-55 checksummed; account 0 first. */
    public synchronized List<String> accounts() {
        if (accounts == null) {
            accounts = rpc.send(rpc.web3j().ethAccounts()).getAccounts().stream()
                    .map(Keys::toChecksumAddress)
                    .toList();
        }
        return accounts;
    }

    /** Mints {@code baseUnits} of a token to {@code to} (the deployer sends it) and returns the transaction hash. */
    public String mint(DevTokens token, String to, BigInteger baseUnits) {
        Function mint = new Function("mint", List.of(new Address(to), new Uint256(baseUnits)), List.of());
        return send(DEPLOYER, token.address(), mint);
    }

    /**
     * Sets a dev price feed's price (a new round stamped with the next block's time), sent by the feeds' owner; answers
     * the transaction hash.
     */
    public String setUsdPrice(DevPriceFeeds feed, BigDecimal usd) {
        BigInteger answer = usd.movePointRight(DevPriceFeeds.DECIMALS).toBigIntegerExact();
        return send(
                DevPriceFeeds.OWNER, feed.address(), new Function("setAnswer", List.of(new Int256(answer)), List.of()));
    }

    /**
     * Transfers {@code baseUnits} of a token from an unlocked dev account and returns the transaction hash.
     *
     * @throws IllegalStateException if it reverts, e.g. on an insufficient balance (anvil still mines the reverted
     *     transaction, so it uses the sender's nonce); the message gives the revert reason
     */
    public String transferToken(String from, DevTokens token, String to, BigInteger baseUnits) {
        Function transfer = new Function("transfer", List.of(new Address(to), new Uint256(baseUnits)), List.of());
        return send(from, token.address(), transfer);
    }

    /**
     * Sends a transaction as a wallet would from what an API answered ({@code to}, 0x-hex call data and value), from
     * an unlocked dev account; waits until it is mined and returns its receipt.
     *
     * @throws IllegalStateException if it reverts
     */
    public TransactionReceipt sendTransaction(String from, String to, String data, BigInteger value) {
        return rpc.transact(from, null, to, value, data);
    }

    /** Sends {@code wei} of the native coin from an unlocked dev account and returns the transaction hash. */
    public String sendNative(String from, String to, BigInteger wei) {
        return rpc.transact(from, null, to, wei, null).getTransactionHash();
    }

    /** A holder's token balance in base units at the latest block. */
    public BigInteger tokenBalance(DevTokens token, String holder) {
        Function balanceOf =
                new Function("balanceOf", List.of(new Address(holder)), List.of(new TypeReference<Uint256>() {}));
        return (BigInteger) call(token.address(), balanceOf).get(0).getValue();
    }

    /** {@code eth_call} of raw call data at the latest block; answers the raw 0x-hex result. */
    public String callRaw(String contract, String data) {
        return rpc.call(contract, data);
    }

    /**
     * Deploys a contract of {@code dev-chain/build/<name>.json} from an unlocked dev account and answers its address.
     * Not from {@link #DEPLOYER}, whose nonces place the dev chain's own contracts.
     *
     * @param constructorArguments the ABI-encoded constructor arguments, hex without 0x ("" for none)
     */
    public String deploy(String from, String name, String constructorArguments) {
        if (from.equalsIgnoreCase(DEPLOYER)) {
            throw new IllegalArgumentException("the deployer's nonces are reserved for the dev chain's own contracts");
        }
        String code = TokenDeployment.bytecode(buildDir.resolve(name + ".json")) + constructorArguments;
        return Keys.toChecksumAddress(
                rpc.transact(from, null, null, BigInteger.ZERO, code).getContractAddress());
    }

    /** Calls a view function at the latest block ({@code eth_call}) and decodes its outputs. */
    @SuppressWarnings("rawtypes")
    public List<Type> call(String contract, Function function) {
        String result = rpc.call(contract, FunctionEncoder.encode(function));
        return FunctionReturnDecoder.decode(result, function.getOutputParameters());
    }

    /** Sends a function call from an unlocked dev account, waits until it is mined and returns its hash. */
    public String send(String from, String contract, Function function) {
        return rpc.transact(from, null, contract, BigInteger.ZERO, FunctionEncoder.encode(function))
                .getTransactionHash();
    }

    /**
     * Sends a function call with a fixed gas limit (no estimate), waits until it is mined and returns its receipt,
     * reverted or not: for tests of what a contract does when a caller starves it of gas.
     */
    public TransactionReceipt sendWithGas(String from, String contract, Function function, BigInteger gasLimit) {
        return rpc.transactWithGas(from, contract, FunctionEncoder.encode(function), gasLimit);
    }

    /** The receipt of a transaction, or empty when the chain has none (e.g. after {@link #reorg(int)}). */
    public Optional<TransactionReceipt> receipt(String txHash) {
        return rpc.receipt(txHash);
    }

    /** The number of the latest block. */
    public long blockNumber() {
        return rpc.send(rpc.web3j().ethBlockNumber()).getBlockNumber().longValueExact();
    }

    /** Mines {@code blocks} empty blocks ({@code anvil_mine}). */
    public void mine(int blocks) {
        rpc.custom("anvil_mine", Numeric.encodeQuantity(BigInteger.valueOf(blocks)));
    }

    /**
     * Replaces the latest {@code depth} blocks with as many new empty blocks ({@code anvil_reorg} with no
     * transactions): the block number stays, the block hashes change, and the transactions of the replaced blocks
     * are gone (no receipt, not pending, their state changes undone). It rewrites history for every user of this
     * chain: a test that reorgs while others may run should use a chain of its own.
     */
    public void reorg(int depth) {
        rpc.custom("anvil_reorg", depth, List.of());
    }

    /** Takes a snapshot of the whole chain ({@code evm_snapshot}) and returns its id for {@link #revert(String)}. */
    public String snapshot() {
        return String.valueOf(rpc.custom("evm_snapshot"));
    }

    /**
     * Returns the chain to a snapshot ({@code evm_revert}): later blocks and their transactions are gone. A snapshot
     * can be reverted to once; snapshots do not survive {@link #pause()}.
     */
    public void revert(String snapshotId) {
        if (!Boolean.TRUE.equals(rpc.custom("evm_revert", snapshotId))) {
            throw new IllegalStateException("evm_revert refused snapshot " + snapshotId);
        }
    }

    /** Moves the chain's clock forward ({@code evm_increaseTime}) and mines a block carrying the new time. */
    public void increaseTime(long seconds) {
        rpc.custom("evm_increaseTime", seconds);
        mine(1);
    }

    /**
     * Takes the node down: anvil is stopped (its state written to a file) and the port no longer answers, so every
     * RPC call fails with a connection error until {@link #resume()}.
     */
    public synchronized void pause() {
        ownNode().pause();
    }

    /**
     * Brings the node back on the same port with the state it had at {@link #pause()}: accounts, contracts, blocks
     * and receipts. The clock resumes no earlier than the last block (anvil itself would restart at wall-clock time,
     * before it when {@link #increaseTime(long)} was used); snapshots are lost.
     */
    public synchronized void resume() {
        ownNode().resume();
    }

    /**
     * Kills anvil (and anything it started) and deletes its temporary files; with a {@link #stateIn state directory}
     * anvil is stopped cleanly instead, so its state is written, and the directory is kept. An attached node is left
     * running.
     */
    @Override
    public synchronized void close() {
        if (node != null) {
            node.close();
            node = null;
        } else if (rpc != null) {
            rpc.shutdown();
        }
        rpc = null;
    }

    private DevChainNode ownNode() {
        if (node == null) {
            throw new IllegalStateException("this DevChain runs no anvil process of its own");
        }
        return node;
    }

    private void requireNotStarted() {
        if (rpc != null) {
            throw new IllegalStateException("this DevChain was already started");
        }
    }
}
