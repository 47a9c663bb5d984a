-- Scanning at a cost that does not grow with the watch list (chain-watcher/README.md, "Scanning"), transfers of
-- another asset than the link's, reports a receiver refused, and links whose event came late.

-- The asset a transfer actually moved: the token contract (lower-case), NULL for the native coin. It may differ from
-- the link's (a wrong-token deposit); decimals are that asset's. Transfers stored before this column existed were
-- all of their link's asset: they take it from the watch while it is still there (a transfer of a watch already
-- forgotten keeps NULL, and its reports were made long ago).
ALTER TABLE detected_transfer ADD COLUMN token_contract TEXT;
UPDATE detected_transfer AS d SET token_contract = w.token_contract
FROM watched_address AS w
WHERE w.payment_link_id = d.payment_link_id AND d.log_index >= 0;

-- When the receiver last refused a report (a 4xx): the report stays due but is sent again no sooner than a minute
-- later. Cleared when a report is acknowledged.
ALTER TABLE detected_transfer ADD COLUMN refused_at TIMESTAMPTZ;
ALTER TABLE contract_log ADD COLUMN refused_at TIMESTAMPTZ;

-- When the link was created (its payment.created event's created_at): how far back its deposit address is looked
-- for. NULL for watches learned before this column existed (they are all searched already).
ALTER TABLE watched_address ADD COLUMN link_created_at TIMESTAMPTZ;

-- The addresses the scanner has not searched earlier blocks for yet: the only rows it reads on each pass.
CREATE INDEX watched_address_fresh ON watched_address (chain_id) WHERE NOT backfilled;

-- Grows each time a chain's lease changes hands: the instance holding it keeps the watch list in memory and loads it
-- again whole when another instance may have held the chain since its own last pass.
ALTER TABLE chain_cursor ADD COLUMN lease_epoch BIGINT NOT NULL DEFAULT 0;

-- Each pass forgets the addresses whose watch ended: an index range, not a read of the whole list.
CREATE INDEX watched_address_until ON watched_address (watch_until);
