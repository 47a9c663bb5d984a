package dev.cryptopay.bench.chain;

import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.SubscriptionContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.web3j.protocol.core.DefaultBlockParameter;
import org.web3j.protocol.core.methods.request.EthFilter;
import org.web3j.protocol.core.methods.response.EthLog;
import org.web3j.protocol.core.methods.response.Log;

/**
 * The contract's {@code Charged} logs from a block on, read from the chain itself (not from the watcher): what the
 * keeper benchmark counts as collected. Read in ranges of at most 1,000 blocks, incrementally.
 */
final class ChargedLogs {

    private static final long RANGE = 1_000;

    private final DevChain chain;
    /** Periods charged, by subscription id then paidPeriods (the second data word). */
    private final Map<String, Map<Long, Integer>> charges = new HashMap<>();

    private long next;
    private long total;
    private long firstTime;
    private long lastTime;

    ChargedLogs(DevChain chain, long fromBlock) {
        this.chain = chain;
        this.next = fromBlock;
    }

    /** Every Charged log so far (reading the blocks not read yet). */
    long charges() {
        long head = chain.blockNumber();
        while (next <= head) {
            long to = Math.min(head, next + RANGE - 1);
            for (Log log : logs(next, to)) {
                String id = log.getTopics().get(1);
                long paidPeriods = new BigInteger(log.getData().substring(2 + 64, 2 + 128), 16).longValueExact();
                charges.computeIfAbsent(id, any -> new HashMap<>()).merge(paidPeriods, 1, Integer::sum);
                total++;
                long time = new BigInteger(log.getData().substring(2, 2 + 64), 16).longValueExact();
                firstTime = firstTime == 0 ? time : Math.min(firstTime, time);
                lastTime = Math.max(lastTime, time);
            }
            next = to + 1;
        }
        return total;
    }

    /** Seconds between the earliest and the latest period start of the Charged logs read so far (chain time). */
    long spreadSeconds() {
        charges();
        return lastTime - firstTime;
    }

    /** Fails when one subscription was charged twice for the same period. */
    void requireOncePerPeriod() {
        charges();
        charges.forEach((id, periods) -> periods.forEach((period, times) -> {
            if (times > 1) {
                throw new IllegalStateException(
                        "subscription " + id + " was charged " + times + " times for period " + period);
            }
        }));
    }

    private List<Log> logs(long from, long to) {
        EthFilter filter = new EthFilter(
                DefaultBlockParameter.valueOf(BigInteger.valueOf(from)),
                DefaultBlockParameter.valueOf(BigInteger.valueOf(to)),
                SubscriptionContract.ADDRESS);
        filter.addSingleTopic(SubscriptionContract.CHARGED);
        try {
            EthLog answer = chain.web3j().ethGetLogs(filter).send();
            if (answer.hasError()) {
                throw new IllegalStateException(
                        "eth_getLogs failed: " + answer.getError().getMessage());
            }
            return answer.getLogs().stream().map(result -> (Log) result.get()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
