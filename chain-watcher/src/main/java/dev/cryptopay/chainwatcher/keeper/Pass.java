package dev.cryptopay.chainwatcher.keeper;

import java.time.Instant;

/**
 * What one keeper pass knows of its chain and the time.
 *
 * @param head      the head block of the chain's pass
 * @param chainTime the head block's timestamp: what decides whether something is due
 * @param fees      the fees a transaction sent now offers
 * @param now       this host's clock, for the records' bookkeeping only
 */
record Pass(long head, Instant chainTime, Fees fees, Instant now) {}
