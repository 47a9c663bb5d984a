package dev.cryptopay.chainwatcher.scan;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The block ranges of one chain's eth_getLogs calls. Nodes and providers cap them: by the number of blocks, of logs or
 * of bytes in the answer. A range refused as too large ({@link RpcError#rangeTooLarge()}) is asked for again as two
 * halves, recursively, down to one block; a single block still refused is a real failure, which fails the pass as
 * any RPC error does (the cursor moves only after a range was fully stored, so no block is skipped). The refused size
 * is remembered: later ranges are at most half of it ({@link #size()}), and the size doubles again, up to the
 * network's {@code max-block-range}, after {@value #GROW_AFTER} ranges in a row were answered whole.
 */
public final class LogRanges {

    private static final Logger log = LoggerFactory.getLogger(LogRanges.class);

    /** Ranges answered whole before the size is doubled again. */
    static final int GROW_AFTER = 100;

    private final Network network;
    private final AtomicInteger size;
    private final AtomicInteger answered = new AtomicInteger();

    LogRanges(Network network) {
        this.network = network;
        this.size = new AtomicInteger(network.maxBlockRange());
    }

    /** One eth_getLogs call over [from, to]. */
    @FunctionalInterface
    interface RangeCall<T> {

        Mono<List<T>> call(long from, long to);
    }

    /** How many blocks a range should have now: max-block-range, or less since the node refused a larger one. */
    public int size() {
        return size.get();
    }

    /** Calls [from, to] whole, or in halves while the node refuses the range as too large. */
    <T> Mono<List<T>> inHalves(long from, long to, RangeCall<T> call) {
        return Mono.defer(() -> call.call(from, to))
                .doOnSuccess(found -> grow())
                .onErrorResume(
                        failure -> from < to && failure instanceof RpcError error && error.rangeTooLarge(), failure -> {
                            long middle = from + (to - from) / 2;
                            shrink(to - from + 1, failure);
                            return inHalves(from, middle, call)
                                    .flatMap(first -> inHalves(middle + 1, to, call)
                                            .map(second -> {
                                                List<T> both = new ArrayList<>(first.size() + second.size());
                                                both.addAll(first);
                                                both.addAll(second);
                                                return both;
                                            }));
                        });
    }

    private void shrink(long refused, Throwable failure) {
        answered.set(0);
        int half = (int) Math.max(1, refused / 2);
        int before = size.getAndUpdate(current -> Math.min(current, half));
        if (half < before) {
            log.info(
                    "Chain {}: eth_getLogs over {} blocks refused ({}); ranges of at most {} blocks from now on",
                    network.chainId(),
                    refused,
                    failure.getMessage(),
                    half);
        }
    }

    private void grow() {
        if (size.get() < network.maxBlockRange() && answered.incrementAndGet() >= GROW_AFTER) {
            answered.set(0);
            size.updateAndGet(current -> Math.min(network.maxBlockRange(), current * 2));
        }
    }
}
