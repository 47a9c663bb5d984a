-- Outgoing transfers of deposit addresses (refunds and sweeps) and USD values at confirmation (README, "Outgoing
-- transfers" and "USD values").

-- 'in': a transfer to the link's deposit address (reported to .../transactions); 'out': a transfer from it (reported to
-- .../outgoing_transfers). A transfer between two watched addresses is stored twice, once each way, so the direction
-- is part of a transfer's identity. Both are followed the same way: confirmations, reorganisations, reports.
ALTER TABLE detected_transfer ADD COLUMN direction TEXT NOT NULL DEFAULT 'in' CHECK (direction IN ('in', 'out'));
-- The recipient (lower-case); NULL for transfers stored before this column existed (all incoming).
ALTER TABLE detected_transfer ADD COLUMN to_address TEXT;
ALTER TABLE detected_transfer DROP CONSTRAINT detected_transfer_unique;
ALTER TABLE detected_transfer ADD CONSTRAINT detected_transfer_unique UNIQUE (chain_id, tx_hash, log_index, direction);

-- An incoming transfer's USD value when it was confirmed (UsdPricer), valued once: usd_source 'price_feed',
-- 'stablecoin' or 'unknown' (usd_value NULL); usd_source NULL: not valued yet (a confirmed incoming transfer is not
-- reported until it is).
ALTER TABLE detected_transfer ADD COLUMN usd_value NUMERIC(38, 8);
ALTER TABLE detected_transfer ADD COLUMN usd_source TEXT CHECK (usd_source IN ('price_feed', 'stablecoin', 'unknown'));
-- Transfers confirmed before pricing existed were reported long ago: they are not valued any more.
UPDATE detected_transfer SET usd_source = 'unknown' WHERE status <> 'pending';
CREATE INDEX detected_transfer_unpriced ON detected_transfer (chain_id)
    WHERE direction = 'in' AND status = 'confirmed' AND usd_source IS NULL;
