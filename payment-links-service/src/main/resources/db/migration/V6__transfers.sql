-- A transaction may hold several transfers (ERC-20 Transfer logs, or its native value): a multisend paying several
-- links, or two transfers to one link. Each is recorded on its own, identified by (network, tx_hash, log_index).
--
-- log_index: the Transfer log's index in its block; -1 for the native coin (the transaction's value).
-- token_contract: the contract of the token actually transferred, 0x and 40 lower-case hex digits; NULL for the
--   native coin. It may differ from the link's token: a wrong-token deposit (unexpected_asset).
-- asset: what arrived, as the merchant reads it: the currency code when the catalogue knows the contract on that
--   network, otherwise the contract ("native" for a native coin the catalogue does not list).
-- unexpected_asset: not the link's token. Recorded, never counted for the link (no coverage, no use, no payment.*
--   event); once confirmed it is a wallet.deposit with reason unexpected_asset.
ALTER TABLE link_transaction
    ADD COLUMN log_index        INT,
    ADD COLUMN token_contract   TEXT CHECK (token_contract ~ '^0x[0-9a-f]{40}$'),
    ADD COLUMN asset            TEXT,
    ADD COLUMN unexpected_asset BOOLEAN NOT NULL DEFAULT FALSE;

-- Rows recorded before this migration were keyed by (network, tx_hash) and reported only for the link's own token,
-- so they take the link's token and currency. Their log index was never reported: a native-coin link's row is its
-- transaction's value (-1, exact); a token link's row gets -2, "recorded before log indexes", which the first report
-- of the same transfer (same link, hash, token and amount) replaces with its real index, so a payment in flight
-- during the upgrade is still one record and is not counted twice. Links from before on-chain receiving have no
-- token on record (chain_id NULL) and keep -2 as well.
UPDATE link_transaction AS t
SET log_index      = CASE WHEN l.chain_id IS NOT NULL AND l.token_contract IS NULL THEN -1 ELSE -2 END,
    token_contract = lower(l.token_contract),
    asset          = l.currency
FROM payment_link AS l
WHERE l.id = t.payment_link_id;

ALTER TABLE link_transaction
    ALTER COLUMN log_index SET NOT NULL,
    ALTER COLUMN asset SET NOT NULL,
    ADD CONSTRAINT link_transaction_log_index CHECK (log_index >= -2),
    DROP CONSTRAINT link_transaction_network_hash_unique,
    -- Watchers may report the same transfer many times; it is recorded once.
    ADD CONSTRAINT link_transaction_transfer_unique UNIQUE (network, tx_hash, log_index);

-- Resolve and refund find a link's transfers by hash.
CREATE INDEX link_transaction_link_hash ON link_transaction (payment_link_id, lower(tx_hash));
