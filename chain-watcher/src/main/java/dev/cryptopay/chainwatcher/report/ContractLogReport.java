package dev.cryptopay.chainwatcher.report;

import java.time.Instant;
import java.util.List;

/**
 * The body of a report to subscriptions-service: one log of a chain's subscription contract, written by the service's
 * JSON mapper in snake_case and declaration order: {@code {chain_id, contract, tx_hash, log_index, block_number,
 * block_hash, block_time, topics, data, confirmations, removed}}. Hex values are 0x-prefixed and lower-case.
 *
 * @param blockTime     the time of the block the log is in (ISO 8601, e.g. {@code 2026-11-26T10:00:00Z})
 * @param topics        topic0 (the event's signature hash) first, then the indexed arguments
 * @param data          the non-indexed arguments, ABI-encoded ({@code 0x} for none)
 * @param confirmations blocks on top of the log's block, its own included (the network's confirmations once
 *                      confirmed); 0 when removed
 * @param removed       false: the log is confirmed on the chain; true: a log reported before was taken away by a
 *                      reorganisation deeper than the confirmations
 */
public record ContractLogReport(
        long chainId,
        String contract,
        String txHash,
        int logIndex,
        long blockNumber,
        String blockHash,
        Instant blockTime,
        List<String> topics,
        String data,
        int confirmations,
        boolean removed) {}
