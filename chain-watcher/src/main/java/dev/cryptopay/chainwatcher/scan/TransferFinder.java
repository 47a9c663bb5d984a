package dev.cryptopay.chainwatcher.scan;

import dev.cryptopay.chainwatcher.scan.ChainClient.BlockHeader;
import dev.cryptopay.chainwatcher.scan.ChainClient.BlockTransfers;
import dev.cryptopay.chainwatcher.scan.ChainClient.SeenTransfer;
import dev.cryptopay.chainwatcher.watch.WatchedAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Finds the transfers to watched addresses in a block range at a cost that does not depend on how many addresses are
 * watched: one eth_getLogs per range for the Transfer logs of every followed token (the range split as
 * {@link LogRanges} says), and each block once with its transactions for native-coin transfers; every recipient is
 * then looked up in the watch list. Any asset counts — the link's token, another followed token, the native coin: what
 * a transfer means is payment-links-service's decision. Logs marked removed are left out.
 */
final class TransferFinder {

    /** Blocks fetched at once (each one eth_getBlockByNumber call), in order. */
    private static final int BLOCKS_AT_ONCE = 8;

    private final ChainClient client;

    TransferFinder(ChainClient client) {
        this.client = client;
    }

    /** A transfer and the watch it goes to. */
    record Match(SeenTransfer seen, WatchedAddress watch) {}

    /** What a range held for the watch list, and the headers of the blocks read whole (for their hashes). */
    record Found(List<Match> matches, Map<Long, BlockHeader> headers) {

        static final Found NOTHING = new Found(List.of(), Map.of());
    }

    /**
     * The transfers in [from, to] to addresses {@code watched} knows (null: not watched).
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
                .concatMap(seen -> Mono.justOrEmpty(match(seen, watched)))
                .collectList();
        Mono<List<BlockTransfers>> blocks = Flux.range(0, Math.toIntExact(to - from + 1))
                .flatMapSequential(offset -> client.blockTransfers(from + offset), BLOCKS_AT_ONCE)
                .map(block -> new BlockTransfers(
                        block.header(),
                        block.nativeTransfers().stream()
                                .filter(seen -> watched.apply(seen.to()) != null)
                                .toList()))
                .collectList();
        return tokenMatches.zipWith(blocks, (fromLogs, fromBlocks) -> {
            List<Match> matches = new ArrayList<>(fromLogs);
            Map<Long, BlockHeader> headers = new HashMap<>();
            for (BlockTransfers block : fromBlocks) {
                headers.put(block.header().number(), block.header());
                block.nativeTransfers().forEach(seen -> match(seen, watched).ifPresent(matches::add));
            }
            return new Found(matches, headers);
        });
    }

    private static Optional<Match> match(SeenTransfer seen, Function<String, WatchedAddress> watched) {
        WatchedAddress watch = seen.removed() ? null : watched.apply(seen.to());
        return watch == null ? Optional.empty() : Optional.of(new Match(seen, watch));
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
