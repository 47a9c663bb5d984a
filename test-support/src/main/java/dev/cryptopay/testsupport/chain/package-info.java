/**
 * A real local EVM chain for tests: {@link dev.cryptopay.testsupport.chain.DevChain} runs anvil from the project's
 * {@code dev-chain/} folder and deploys the fixed test tokens {@link dev.cryptopay.testsupport.chain.DevTokens}.
 */
package dev.cryptopay.testsupport.chain;
