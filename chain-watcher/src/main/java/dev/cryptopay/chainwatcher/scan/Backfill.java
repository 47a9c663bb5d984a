package dev.cryptopay.chainwatcher.scan;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import dev.cryptopay.chainwatcher.scan.ChainClient.BlockHeader;
import dev.cryptopay.chainwatcher.scan.TransferFinder.Match;
import dev.cryptopay.chainwatcher.watch.WatchedAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;
import reactor.core.publisher.Mono;

/**
 * Looks for addresses new to the watch list in blocks scanned before they arrived: the event may reach the watcher
 * after the customer paid. Searched are the blocks from the link's creation (its event's {@code created_at}, less
 * {@link #CLOCK_MARGIN}) up to the cursor, at most {@code look-back-blocks} of them — usually none or a few, as an
 * event arrives seconds after its link was made; the first of them is found by a binary search over block times.
 * The same local matching as the forward scan ({@link TransferFinder}), against the new addresses only.
 *
 * <p>A watch whose link was created before the oldest block the look-back reaches is <em>late</em>: payments made
 * before that block are not found. It is searched as far as the look-back goes and handed back to be counted
 * ({@code chain_watcher_watches_late_total}) and logged once it is marked searched.
 */
final class Backfill {

    /**
     * How much earlier than its link's creation an address is looked for: the difference the watcher tolerates between
     * payment-links-service's clock and the chain's block times.
     */
    static final Duration CLOCK_MARGIN = Duration.ofSeconds(30);

    private final Network network;
    private final ChainClient client;
    private final TransferFinder finder;

    Backfill(Network network, ChainClient client, TransferFinder finder) {
        this.network = network;
        this.client = client;
        this.finder = finder;
    }

    /** What the blocks before the cursor held for new addresses, and which of them are late. */
    record Result(List<Match> matches, List<WatchedAddress> late) {

        static final Result NOTHING = new Result(List.of(), List.of());
    }

    /**
     * Searches the blocks before {@code from} for the {@code fresh} addresses.
     *
     * @param newest the header of block {@code from - 1} if the caller knows it (null: it is read)
     */
    Mono<Result> search(long from, List<WatchedAddress> fresh, Map<String, Integer> tokens, BlockHeader newest) {
        if (fresh.isEmpty() || from == 0) {
            return Mono.just(Result.NOTHING);
        }
        long oldest = Math.max(0, from - network.lookBackBlocks());
        // null: a watch without a creation time, searched over the whole look-back
        Instant since = fresh.stream().anyMatch(watch -> watch.linkCreatedAt() == null)
                ? null
                : fresh.stream()
                        .map(WatchedAddress::linkCreatedAt)
                        .min(Comparator.naturalOrder())
                        .orElseThrow()
                        .minus(CLOCK_MARGIN);
        Map<String, WatchedAddress> byAddress =
                fresh.stream().collect(Collectors.toMap(WatchedAddress::depositAddress, Function.identity()));
        Mono<BlockHeader> last =
                newest != null && newest.number() == from - 1 ? Mono.just(newest) : client.header(from - 1);
        return last.flatMap(lastBlock -> {
            if (since != null && lastBlock.time().isBefore(since)) {
                return Mono.just(Result.NOTHING); // every link was made after the newest scanned block
            }
            return client.header(oldest).flatMap(oldestBlock -> {
                List<WatchedAddress> late = oldest == 0
                        ? List.of()
                        : fresh.stream()
                                .filter(watch -> watch.linkCreatedAt() != null
                                        && oldestBlock.time().isAfter(watch.linkCreatedAt()))
                                .toList();
                Mono<Long> start = since == null || !oldestBlock.time().isBefore(since)
                        ? Mono.just(oldest)
                        : firstAtOrAfter(oldest, from - 1, since);
                return start.flatMap(first -> finder.find(first, from - 1, tokens.keySet(), byAddress::get))
                        .map(found -> new Result(found.matches(), late));
            });
        });
    }

    /** The first block in (lo, hi] made at or after {@code time}, given block lo was made before it and hi not. */
    private Mono<Long> firstAtOrAfter(long lo, long hi, Instant time) {
        if (hi - lo <= 1) {
            return Mono.just(hi);
        }
        long middle = lo + (hi - lo) / 2;
        return client.header(middle)
                .flatMap(block -> block.time().isBefore(time)
                        ? firstAtOrAfter(middle, hi, time)
                        : firstAtOrAfter(lo, middle, time));
    }

    /** The late watches' link ids, for a log line. */
    static String links(List<WatchedAddress> late) {
        return late.stream()
                .map(WatchedAddress::paymentLinkId)
                .map(Objects::toString)
                .collect(Collectors.joining(", "));
    }
}
