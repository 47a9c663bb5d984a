package dev.cryptopay.testsupport.chain;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Optional;

/**
 * The dev chain's USD price feeds ({@code dev-chain/contracts/DevPriceFeed.sol}, read like Chainlink's
 * {@code AggregatorV3Interface}), deployed by {@link #OWNER} at nonces 0 to 4 in this order, so their addresses are the
 * same on every dev chain. Eight decimals, like Chainlink's USD feeds; the owner sets any price
 * ({@link DevChain#setUsdPrice}). USDC and USDT have no feed: stablecoins count one dollar a unit.
 */
public enum DevPriceFeeds {
    ETH_USD("ETH / USD", "3000", "0x700b6A60ce7EaaEA56F065753d8dcB9653dbAD35"),
    BTC_USD("BTC / USD", "60000", "0xA15BB66138824a1c7167f5E85b957d04Dd34E468"),
    LINK_USD("LINK / USD", "15", "0xb19b36b1456E65E3A6D514D3F715f204BD59f431"),
    BNB_USD("BNB / USD", "600", "0x8ce361602B935680E8DeC218b820ff5056BeB7af"),
    AVAX_USD("AVAX / USD", "30", "0xe1Aa25618fA0c7A1CFDab5d6B456af611873b629");

    /** Anvil's dev account 9, which deploys the feeds and alone may set their prices. */
    public static final String OWNER = "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720";

    /** The feeds' decimals: an answer of 300000000000 is 3000 USD. */
    public static final int DECIMALS = 8;

    private final String description;
    private final BigDecimal initialPrice;
    private final String address;

    DevPriceFeeds(String description, String initialPrice, String address) {
        this.description = description;
        this.initialPrice = new BigDecimal(initialPrice);
        this.address = address;
    }

    /** The feed's {@code description()}, e.g. {@code "ETH / USD"}. */
    public String description() {
        return description;
    }

    /** The price a new dev chain starts with, in USD. */
    public BigDecimal initialPrice() {
        return initialPrice;
    }

    /** The initial price as the feed's answer (USD × 10^8). */
    public BigInteger initialAnswer() {
        return initialPrice.movePointRight(DECIMALS).toBigIntegerExact();
    }

    /** The contract address on the dev chain, EIP-55 checksummed. */
    public String address() {
        return address;
    }

    /** The owner's nonce of the contract-creating transaction: 0 for ETH / USD up to 4 for AVAX / USD. */
    public long deploymentNonce() {
        return ordinal();
    }

    /**
     * The feed that prices a dev token (WETH by ETH / USD, WBTC by BTC / USD, …); empty for the stablecoins USDC and
     * USDT.
     */
    public static Optional<DevPriceFeeds> of(DevTokens token) {
        String base = switch (token) {
            case WETH -> "ETH";
            case WBTC -> "BTC";
            case USDC, USDT -> null;
            default -> token.code();
        };
        return base == null
                ? Optional.empty()
                : Arrays.stream(values())
                        .filter(feed -> feed.description.startsWith(base + " "))
                        .findFirst();
    }
}
