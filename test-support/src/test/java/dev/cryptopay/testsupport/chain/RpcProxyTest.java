package dev.cryptopay.testsupport.chain;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.core.DefaultBlockParameter;
import org.web3j.protocol.core.methods.request.EthFilter;
import org.web3j.protocol.core.methods.response.EthLog;
import org.web3j.protocol.http.HttpService;

/** The JSON-RPC proxy in front of the shared anvil: what it forwards, counts, refuses and holds back. */
class RpcProxyTest {

    private static final DevChain CHAIN = DevChain.shared();

    @Test
    void everyCallIsForwardedAndCountedByMethodUntilAReset() throws Exception {
        try (RpcProxy proxy = new RpcProxy(CHAIN.rpcUrl())) {
            Web3j web3j = Web3j.build(new HttpService(proxy.url()));
            try {
                assertThat(web3j.ethChainId().send().getChainId()).isEqualTo(BigInteger.valueOf(31337));
                assertThat(web3j.ethBlockNumber().send().getBlockNumber().longValueExact())
                        .isEqualTo(CHAIN.blockNumber());
                web3j.ethBlockNumber().send();

                assertThat(proxy.calls()).isEqualTo(Map.of("eth_chainId", 1L, "eth_blockNumber", 2L));
                proxy.reset();
                assertThat(proxy.calls()).isEmpty();
            } finally {
                web3j.shutdown();
            }
        }
    }

    @Test
    void eth_getLogsOverMoreBlocksThanAllowedIsRefusedAsProvidersDoAndCounted() throws Exception {
        CHAIN.mine(3);
        long head = CHAIN.blockNumber();
        try (RpcProxy proxy = new RpcProxy(CHAIN.rpcUrl()).refuseLogsOver(2)) {
            Web3j web3j = Web3j.build(new HttpService(proxy.url()));
            try {
                EthLog tooMany = web3j.ethGetLogs(logs(head - 2, head)).send();
                EthLog allowed = web3j.ethGetLogs(logs(head - 1, head)).send();

                assertThat(tooMany.hasError()).isTrue();
                assertThat(tooMany.getError().getCode()).isEqualTo(-32005);
                assertThat(tooMany.getError().getMessage()).isEqualTo("query returned more than 10000 results");
                assertThat(allowed.hasError()).isFalse();
                assertThat(proxy.refused()).isEqualTo(1);
                assertThat(proxy.calls()).isEqualTo(Map.of("eth_getLogs", 2L));
            } finally {
                web3j.shutdown();
            }
        }
    }

    @Test
    void theHeadShownStaysAtTheLimitWhileTheChainGrowsPastIt() throws Exception {
        long head = CHAIN.blockNumber();
        try (RpcProxy proxy = new RpcProxy(CHAIN.rpcUrl()).showHeadUpTo(head)) {
            Web3j web3j = Web3j.build(new HttpService(proxy.url()));
            try {
                CHAIN.mine(2);
                assertThat(web3j.ethBlockNumber().send().getBlockNumber().longValueExact())
                        .isEqualTo(head);
                proxy.showHeadUpTo(head + 1);
                assertThat(web3j.ethBlockNumber().send().getBlockNumber().longValueExact())
                        .isEqualTo(head + 1);
                proxy.showHeadUpTo(Long.MAX_VALUE - 1);
                assertThat(web3j.ethBlockNumber().send().getBlockNumber().longValueExact())
                        .as("never above the node's own head")
                        .isEqualTo(CHAIN.blockNumber());
            } finally {
                web3j.shutdown();
            }
        }
    }

    private static EthFilter logs(long from, long to) {
        return new EthFilter(
                DefaultBlockParameter.valueOf(BigInteger.valueOf(from)),
                DefaultBlockParameter.valueOf(BigInteger.valueOf(to)),
                DevTokens.USDC.address());
    }
}
