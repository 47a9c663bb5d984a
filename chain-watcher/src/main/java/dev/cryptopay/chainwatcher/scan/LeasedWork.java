package dev.cryptopay.chainwatcher.scan;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import java.util.Optional;
import reactor.core.publisher.Mono;

/**
 * Work a chain's pass does last, after scanning, confirming and reporting, while this instance holds the chain's
 * lease: so it runs on one instance at a time per chain, never while another instance scans that chain. The keeper
 * ({@code dev.cryptopay.chainwatcher.keeper}) is such work; it plugs in here, so scanning knows nothing of it.
 */
public interface LeasedWork {

    /**
     * Runs once per pass of the chain.
     *
     * @param head the head block the pass read (the work reads the chain's time from it)
     * @return completes when done; a failure fails the pass, which is counted and retried like an RPC error
     */
    Mono<Void> afterPass(long head);

    /** Gives each chain its leased work, if any: a Spring bean, asked once per chain at start. */
    interface Source {

        /** The work for this chain (using the scanner's client), or empty when there is none on it. */
        Optional<LeasedWork> forChain(Network network, ChainClient client);
    }
}
