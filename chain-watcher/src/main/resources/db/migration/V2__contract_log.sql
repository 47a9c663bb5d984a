-- Every log of a chain's subscription contract (chain-watcher.networks[i].subscription-contract), found in the same
-- scanned ranges as transfers and followed the same way: confirmations, reorganisations. subscriptions-service is told
-- of a log once it is confirmed, and again (removed) if a reorganisation deeper than the confirmations took it away.

CREATE TABLE contract_log (
    chain_id        BIGINT      NOT NULL,
    contract        TEXT        NOT NULL, -- lower-case
    tx_hash         TEXT        NOT NULL,
    log_index       INT         NOT NULL,
    block_number    BIGINT      NOT NULL,
    block_hash      TEXT        NOT NULL,
    block_time      TIMESTAMPTZ NOT NULL,
    topics          TEXT[]      NOT NULL, -- 0x-hex, topic0 (the event) first
    data            TEXT        NOT NULL, -- 0x-hex
    status          TEXT        NOT NULL CHECK (status IN ('pending', 'confirmed', 'failed')),
    confirmations   INT         NOT NULL,
    -- Set when a reorganisation removed its block; cleared when the rescan finds it again.
    orphaned        BOOLEAN     NOT NULL DEFAULT FALSE,
    -- What subscriptions-service acknowledged: NULL nothing, 'confirmed' the log, 'failed' its removal.
    reported_status TEXT CHECK (reported_status IN ('confirmed', 'failed')),
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    CONSTRAINT contract_log_unique UNIQUE (chain_id, tx_hash, log_index)
);

CREATE INDEX contract_log_open ON contract_log (chain_id, block_number) WHERE status = 'pending';
-- The logs with a report due (ContractLogRepository.unreported).
CREATE INDEX contract_log_unreported ON contract_log (chain_id, block_number, log_index)
    WHERE NOT orphaned AND ((status = 'confirmed' AND reported_status IS DISTINCT FROM 'confirmed')
                            OR (status = 'failed' AND reported_status = 'confirmed'));
