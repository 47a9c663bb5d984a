package dev.cryptopay.testsupport.chain;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * The seven test ERC-20 tokens ({@code dev-chain/contracts/TestToken.sol}) that {@link DevChain} deploys, in this
 * order, from dev account 0 ({@link DevChain#DEPLOYER}) at nonces 1 to 7 (nonce 0 is reserved for the subscription
 * contract). Their addresses follow from the deployer and the nonce alone, so they are the same on every dev chain,
 * and other services' configuration names them. {@link #name()} is the token's symbol, e.g. {@code "USDC"}.
 */
public enum DevTokens {
    USDC("USD Coin", 6, "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512"),
    USDT("Tether USD", 6, "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0"),
    WETH("Wrapped Ether", 18, "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9"),
    LINK("ChainLink Token", 18, "0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9"),
    WBTC("Wrapped BTC", 8, "0x5FC8d32690cc91D4c39d9d3abcBD16989F875707"),
    BNB("BNB", 18, "0x0165878A594ca255338adfa4d48449f69242Eb8F"),
    AVAX("Avalanche", 18, "0xa513E6E4b8f2a923D98304ec87F64353C4D5C853");

    private final String tokenName;
    private final int decimals;
    private final String address;

    DevTokens(String tokenName, int decimals, String address) {
        this.tokenName = tokenName;
        this.decimals = decimals;
        this.address = address;
    }

    /** The token's symbol, e.g. {@code "USDC"} (the same as {@link #name()}). */
    public String code() {
        return name();
    }

    /** The token's ERC-20 {@code name()}, e.g. {@code "USD Coin"}. */
    public String tokenName() {
        return tokenName;
    }

    /** The token's ERC-20 {@code decimals()}. */
    public int decimals() {
        return decimals;
    }

    /** The contract address on the dev chain, EIP-55 checksummed. */
    public String address() {
        return address;
    }

    /** The deployer's nonce of the contract-creating transaction: 1 for USDC up to 7 for AVAX. */
    public long deploymentNonce() {
        return ordinal() + 1L;
    }

    /**
     * An amount in base units, e.g. {@code USDC.baseUnits("12.5")} is 12500000.
     *
     * @throws ArithmeticException if the amount has more fraction digits than the token's decimals
     */
    public BigInteger baseUnits(String amount) {
        return new BigDecimal(amount).movePointRight(decimals).toBigIntegerExact();
    }
}
