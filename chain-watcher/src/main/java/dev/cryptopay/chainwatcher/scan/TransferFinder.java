package dev.cryptopay.chainwatcher.scan;

import dev.cryptopay.chainwatcher.scan.ChainClient.BlockHeader;
import dev.cryptopay.chainwatcher.scan.ChainClient.BlockTransfers;
import dev.cryptopay.chainwatcher.scan.ChainClient.SeenTransfer;
import dev.cryptopay.chainwatcher.watch.WatchedAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Finds the transfers to and from watched addresses in a block range at a cost that does not depend on how many addresses are
 * watched: one eth_getLogs per range for the Transfer logs of every followed token (the range split as
 * {@link LogRanges} says), and each block once with its transactions for native-coin transfers; every recipient and
 * every sender is then looked up in the watch list (a transfer between two watched addresses matches twice: outgoing
 * for one, incoming for the other). Any asset counts — the link's token, another followed token, the native coin: what
 * a transfer means is payment-links-service's decision. Logs marked removed are left out.
 */
final class TransferFinder {

    /** Blocks fetched at once (each one eth_getBlockByNumber call), in order. */
    private static final int BLOCKS_AT_ONCE = 8;

    private final ChainClient client;

    TransferFinder(ChainClient client) {
        this.client = client;
    }

    /** A transfer and the watch it goes to ({@code outgoing} false) or comes from ({@code outgoing} true). */
    record Match(SeenTransfer seen, WatchedAddress watch, boolean outgoing) {}

    /** What a range held for the watch list, and the headers of the blocks read whole (for their hashes). */
    record Found(List<Match> matches, Map<Long, BlockHeader> headers) {

        static final Found NOTHING = new Found(List.of(), Map.of());
    }

    /**
     * The transfers in [from, to] to or from addresses {@code watched} knows (null: not watched).
     *
     * @param tokens the followed token contracts, lower-case
     */
    Mono<Found> find(long from, long to, Iterable<String> tokens, Function<String, WatchedAddress> watched) {
        if (from > to) {
            return Mono.just(Found.NOTHING);
        }
        List<String> contracts = new ArrayList<>();
        tokens.forEach(contracts::add);
        Mono<List<Match>> tokenMatches = Flux.fromIterable(
                        chunks(from, to, client.ranges().size()))
                .concatMap(chunk -> client.tokenTransfers(chunk[0], chunk[1], contracts))
                .flatMapIterable(found -> found)
                .concatMapIterable(seen -> matches(seen, watched))
                .collectList();
        Mono<List<BlockTransfers>> blocks = Flux.range(0, Math.toIntExact(to - from + 1))
                .flatMapSequential(offset -> client.blockTransfers(from + offset), BLOCKS_AT_ONCE)
                .map(block -> new BlockTransfers(
                        block.header(),
                        block.nativeTransfers().stream()
                                .filter(seen -> watched.apply(seen.to()) != null || watched.apply(seen.from()) != null)
                                .toList()))
                .collectList();
        return tokenMatches.zipWith(blocks, (fromLogs, fromBlocks) -> {
            List<Match> matches = new ArrayList<>(fromLogs);
            Map<Long, BlockHeader> headers = new HashMap<>();
            for (BlockTransfers block : fromBlocks) {
                headers.put(block.header().number(), block.header());
                block.nativeTransfers().forEach(seen -> matches.addAll(matches(seen, watched)));
            }
            return new Found(matches, headers);
        });
    }

    private static List<Match> matches(SeenTransfer seen, Function<String, WatchedAddress> watched) {
        if (seen.removed()) {
            return List.of();
        }
        List<Match> matches = new ArrayList<>(2);
        WatchedAddress recipient = watched.apply(seen.to());
        if (recipient != null) {
            matches.add(new Match(seen, recipient, false));
        }
        WatchedAddress sender = seen.from() == null ? null : watched.apply(seen.from());
        if (sender != null) {
            matches.add(new Match(seen, sender, true));
        }
        return matches;
    }

    /** [from, to] cut into ranges of at most {@code size} blocks. */
    private static List<long[]> chunks(long from, long to, int size) {
        List<long[]> chunks = new ArrayList<>();
        for (long start = from; start <= to; start += size) {
            chunks.add(new long[] {start, Math.min(to, start + size - 1)});
        }
        return chunks;
    }
}
