package dev.cryptopay.testsupport.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.web3j.abi.TypeReference;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.Utf8String;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.abi.datatypes.generated.Uint8;
import org.web3j.crypto.ContractUtils;
import org.web3j.crypto.Keys;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.protocol.core.methods.response.EthBlock;

/**
 * DevChain against a real anvil: the shared chain for what leaves history alone, and a chain of the class's own for
 * what rewrites it or takes the node down (reorg, revert, pause).
 */
class DevChainTest {

    private static DevChain chain;
    private static DevChain own;

    @BeforeAll
    static void startChains() {
        chain = DevChain.shared();
        own = new DevChain().start();
    }

    @AfterAll
    static void closeOwnChain() {
        own.close();
    }

    @Test
    void isChain31337WithTheTenWellKnownDevAccounts() {
        assertThat(chain.chainId()).isEqualTo(31337L);
        assertThat(chain.accounts())
                .hasSize(10)
                .startsWith(DevChain.DEPLOYER, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    }

    @Test
    void theSevenTokensAreDeployedAtTheirFixedAddressesWithTheirDecimalsAndSymbols() throws IOException {
        assertThat(DevTokens.USDC.address()).isEqualTo("0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512");
        assertThat(DevTokens.USDT.address()).isEqualTo("0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0");
        assertThat(DevTokens.WETH.address()).isEqualTo("0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9");
        for (DevTokens token : DevTokens.values()) {
            BigInteger nonce = BigInteger.valueOf(token.deploymentNonce());
            String derived = Keys.toChecksumAddress(ContractUtils.generateContractAddress(DevChain.DEPLOYER, nonce));
            assertThat(token.address()).as(token + " address").isEqualTo(derived);

            String code = chain.web3j()
                    .ethGetCode(token.address(), DefaultBlockParameterName.LATEST)
                    .send()
                    .getCode();
            assertThat(code).as(token + " code").startsWith("0x").hasSizeGreaterThan(2);
            assertThat(call(token, "decimals", new TypeReference<Uint8>() {}))
                    .isEqualTo(BigInteger.valueOf(token.decimals()));
            assertThat(call(token, "symbol", new TypeReference<Utf8String>() {}))
                    .isEqualTo(token.code());
            assertThat(call(token, "name", new TypeReference<Utf8String>() {})).isEqualTo(token.tokenName());
        }
    }

    @Test
    void mintThenTransferMovesBalancesExactly() {
        String alice = chain.accounts().get(1);
        String bob = Keys.toChecksumAddress("0x" + "b0b".repeat(13) + "b");
        BigInteger aliceBefore = chain.tokenBalance(DevTokens.USDC, alice);
        BigInteger bobBefore = chain.tokenBalance(DevTokens.USDC, bob);

        String mint = chain.mint(DevTokens.USDC, alice, DevTokens.USDC.baseUnits("100"));
        String transfer = chain.transferToken(alice, DevTokens.USDC, bob, DevTokens.USDC.baseUnits("12.345678"));

        assertThat(chain.receipt(mint))
                .hasValueSatisfying(r -> assertThat(r.isStatusOK()).isTrue());
        assertThat(chain.receipt(transfer))
                .hasValueSatisfying(r -> assertThat(r.getLogs()).hasSize(1));
        assertThat(chain.tokenBalance(DevTokens.USDC, alice))
                .isEqualTo(aliceBefore.add(BigInteger.valueOf(87_654_322)));
        assertThat(chain.tokenBalance(DevTokens.USDC, bob)).isEqualTo(bobBefore.add(BigInteger.valueOf(12_345_678)));
    }

    @Test
    void aTransferBeyondTheBalanceIsRefused() {
        String carol = chain.accounts().get(2);
        BigInteger balance = chain.tokenBalance(DevTokens.WBTC, carol);

        assertThatThrownBy(() ->
                        chain.transferToken(carol, DevTokens.WBTC, DevChain.DEPLOYER, balance.add(BigInteger.ONE)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("insufficient balance");
        assertThat(chain.tokenBalance(DevTokens.WBTC, carol)).isEqualTo(balance);
    }

    @Test
    void transferFromSpendsTheAllowanceAndRefusesMoreThanIsLeft() {
        String owner = chain.accounts().get(8);
        String spender = chain.accounts().get(9);
        String to = Keys.toChecksumAddress("0x" + "7e57".repeat(10));
        String weth = DevTokens.WETH.address();
        chain.mint(DevTokens.WETH, owner, BigInteger.valueOf(1_000));
        BigInteger ownerBefore = chain.tokenBalance(DevTokens.WETH, owner);
        BigInteger toBefore = chain.tokenBalance(DevTokens.WETH, to);

        chain.send(owner, weth, new Function("approve", List.of(new Address(spender), new Uint256(300)), List.of()));
        chain.send(spender, weth, transferFrom(owner, to, 200));

        Function allowance = new Function(
                "allowance",
                List.of(new Address(owner), new Address(spender)),
                List.of(new TypeReference<Uint256>() {}));
        assertThat(chain.call(weth, allowance).get(0).getValue()).isEqualTo(BigInteger.valueOf(100));
        assertThatThrownBy(() -> chain.send(spender, weth, transferFrom(owner, to, 101)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("insufficient allowance");
        assertThat(chain.tokenBalance(DevTokens.WETH, owner)).isEqualTo(ownerBefore.subtract(BigInteger.valueOf(200)));
        assertThat(chain.tokenBalance(DevTokens.WETH, to)).isEqualTo(toBefore.add(BigInteger.valueOf(200)));
    }

    @Test
    void sendNativeMovesWei() throws IOException {
        String to = chain.accounts().get(3);
        BigInteger before = chain.web3j()
                .ethGetBalance(to, DefaultBlockParameterName.LATEST)
                .send()
                .getBalance();

        chain.sendNative(chain.accounts().get(4), to, BigInteger.valueOf(12_345));

        assertThat(chain.web3j()
                        .ethGetBalance(to, DefaultBlockParameterName.LATEST)
                        .send()
                        .getBalance())
                .isEqualTo(before.add(BigInteger.valueOf(12_345)));
    }

    @Test
    void mineAdvancesTheBlockNumber() {
        long before = chain.blockNumber();
        chain.mine(5);
        assertThat(chain.blockNumber()).isEqualTo(before + 5);
    }

    @Test
    void increaseTimeMovesTheNextBlocksClock() throws IOException {
        long before = latestBlock(chain).getTimestamp().longValueExact();
        chain.increaseTime(3600);
        assertThat(latestBlock(chain).getTimestamp().longValueExact()).isGreaterThanOrEqualTo(before + 3600);
    }

    @Test
    void aReorgDropsTheTransactionsOfTheReplacedBlock() throws IOException {
        String holder = own.accounts().get(5);
        BigInteger before = own.tokenBalance(DevTokens.USDT, holder);
        String mint = own.mint(DevTokens.USDT, holder, BigInteger.valueOf(500));
        long height = own.blockNumber();
        String hashBefore = latestBlock(own).getHash();
        assertThat(own.receipt(mint)).isPresent();

        own.reorg(1);

        assertThat(own.blockNumber()).isEqualTo(height);
        assertThat(latestBlock(own).getHash()).isNotEqualTo(hashBefore);
        assertThat(own.receipt(mint)).isEmpty();
        assertThat(own.web3j().ethGetTransactionByHash(mint).send().getTransaction())
                .isEmpty();
        assertThat(own.tokenBalance(DevTokens.USDT, holder)).isEqualTo(before);
    }

    @Test
    void revertToASnapshotUndoesLaterTransactions() {
        String holder = own.accounts().get(6);
        BigInteger before = own.tokenBalance(DevTokens.LINK, holder);
        long height = own.blockNumber();
        String snapshot = own.snapshot();
        String mint = own.mint(DevTokens.LINK, holder, DevTokens.LINK.baseUnits("1"));
        assertThat(own.tokenBalance(DevTokens.LINK, holder)).isEqualTo(before.add(DevTokens.LINK.baseUnits("1")));

        own.revert(snapshot);

        assertThat(own.blockNumber()).isEqualTo(height);
        assertThat(own.receipt(mint)).isEmpty();
        assertThat(own.tokenBalance(DevTokens.LINK, holder)).isEqualTo(before);
    }

    @Test
    void pauseTakesTheNodeDownAndResumeBringsItBackWithItsState() throws IOException {
        String holder = own.accounts().get(7);
        String mint = own.mint(DevTokens.AVAX, holder, BigInteger.valueOf(777));
        own.increaseTime(86_400);
        long height = own.blockNumber();
        long timestamp = latestBlock(own).getTimestamp().longValueExact();

        own.pause();
        try {
            assertThatThrownBy(() -> own.web3j().ethBlockNumber().send()).isInstanceOf(IOException.class);
            assertThatThrownBy(own::blockNumber).isInstanceOf(RuntimeException.class);
        } finally {
            own.resume();
        }

        assertThat(own.blockNumber()).isEqualTo(height);
        assertThat(own.receipt(mint)).isPresent();
        assertThat(own.tokenBalance(DevTokens.AVAX, holder)).isEqualTo(BigInteger.valueOf(777));
        own.mine(1);
        assertThat(latestBlock(own).getTimestamp().longValueExact()).isGreaterThan(timestamp);
        assertThat(own.chainId()).isEqualTo(31337L);
    }

    @Test
    void theSharedChainIsOnePerJvm() {
        assertThat(DevChain.shared()).isSameAs(chain);
        assertThat(DevChain.shared().rpcUrl()).isEqualTo(chain.rpcUrl()).isNotEqualTo(own.rpcUrl());
    }

    private static Function transferFrom(String from, String to, long amount) {
        return new Function(
                "transferFrom", List.of(new Address(from), new Address(to), new Uint256(amount)), List.of());
    }

    private static Object call(DevTokens token, String function, TypeReference<?> output) {
        return chain.call(token.address(), new Function(function, List.of(), List.of(output)))
                .get(0)
                .getValue();
    }

    private static EthBlock.Block latestBlock(DevChain on) throws IOException {
        return on.web3j()
                .ethGetBlockByNumber(DefaultBlockParameterName.LATEST, false)
                .send()
                .getBlock();
    }
}
