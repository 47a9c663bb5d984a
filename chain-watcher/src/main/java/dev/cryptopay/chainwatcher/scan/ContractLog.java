package dev.cryptopay.chainwatcher.scan;

import dev.cryptopay.chainwatcher.report.ContractLogReport;
import java.time.Instant;
import java.util.List;

/**
 * A log of a chain's subscription contract, as the watcher believes it now and as it last reported it. Hex values are
 * lower-case.
 *
 * @param status         {@code pending}, {@code confirmed} or {@code failed} (a reorganisation removed it)
 * @param orphaned       its block was replaced by a reorganisation and the rescan has not found it again yet
 * @param reportedStatus what subscriptions-service acknowledged: null nothing, {@code confirmed} the log,
 *                       {@code failed} its removal
 */
public record ContractLog(
        long chainId,
        String contract,
        String txHash,
        int logIndex,
        long blockNumber,
        String blockHash,
        Instant blockTime,
        List<String> topics,
        String data,
        String status,
        int confirmations,
        boolean orphaned,
        String reportedStatus) {

    public ContractLog {
        topics = List.copyOf(topics);
    }

    /** What subscriptions-service is told: the confirmed log, or (once failed) that it was removed. */
    public ContractLogReport report() {
        boolean removed = status.equals("failed");
        return new ContractLogReport(
                chainId,
                contract,
                txHash,
                logIndex,
                blockNumber,
                blockHash,
                blockTime,
                topics,
                data,
                removed ? 0 : confirmations,
                removed);
    }
}
