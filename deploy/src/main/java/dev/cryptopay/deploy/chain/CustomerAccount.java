package dev.cryptopay.deploy.chain;

import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;

/**
 * The local stack's paying customer: anvil's dev account 1 of the mnemonic {@code test test … junk}, whose private
 * key is published in anvil's and Hardhat's documentation. A PUBLIC TEST KEY: anyone can spend what it holds on any
 * network, so it is only ever funded on dev chains. It starts with 10000 ETH; the stack mints it every test token.
 */
public final class CustomerAccount {

    public static final String ADDRESS = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

    /** Account 1's private key: public knowledge, for dev chains only. */
    public static final String PRIVATE_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

    /** What the customer gets of each test token on a new chain, in whole tokens. */
    public static final String TOKEN_AMOUNT = "10000";

    private CustomerAccount() {}

    public static void fund(DevChain chain) {
        for (DevTokens token : DevTokens.values()) {
            chain.mint(token, ADDRESS, token.baseUnits(TOKEN_AMOUNT));
        }
    }
}
