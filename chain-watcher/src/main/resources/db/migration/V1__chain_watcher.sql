-- What the chain watcher knows: the addresses to watch (learned from payment.created events), how far each chain
-- has been scanned (and by which instance), the hashes of recent blocks (to notice reorganisations), and every
-- transfer it detected with what it last reported.

-- One row per payment link with a deposit address. Addresses and contracts are stored lower-case.
CREATE TABLE watched_address (
    payment_link_id   UUID PRIMARY KEY,
    chain_id          BIGINT         NOT NULL,
    network           TEXT           NOT NULL,
    deposit_address   TEXT           NOT NULL,
    token_contract    TEXT,          -- NULL: the network's native coin
    decimals          INT            NOT NULL CHECK (decimals BETWEEN 0 AND 36),
    amount_base_units NUMERIC(78, 0) NOT NULL,
    expires_at        TIMESTAMPTZ    NOT NULL,
    -- Payments are still looked for (and reported as late) until then.
    watch_until       TIMESTAMPTZ    NOT NULL,
    -- Whether the blocks scanned before the address arrived were searched for it.
    backfilled        BOOLEAN        NOT NULL DEFAULT FALSE,
    created_at        TIMESTAMPTZ    NOT NULL,
    CONSTRAINT watched_address_unique UNIQUE (chain_id, deposit_address)
);

CREATE INDEX watched_address_chain ON watched_address (chain_id, watch_until);

-- The scan position of each chain. Only the instance holding the lease scans the chain.
CREATE TABLE chain_cursor (
    chain_id     BIGINT PRIMARY KEY,
    next_block   BIGINT      NOT NULL CHECK (next_block >= 0),
    leased_by    TEXT,
    lease_until  TIMESTAMPTZ,
    updated_at   TIMESTAMPTZ NOT NULL
);

-- Hashes of the scanned blocks inside the reorganisation window.
CREATE TABLE chain_block (
    chain_id     BIGINT      NOT NULL,
    block_number BIGINT      NOT NULL,
    block_hash   TEXT        NOT NULL,
    block_time   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (chain_id, block_number)
);

-- A transfer to a watched address. status is what the watcher believes now; reported_status and
-- reported_confirmations what payment-links-service has acknowledged.
CREATE TABLE detected_transfer (
    id                     UUID PRIMARY KEY,
    chain_id               BIGINT         NOT NULL,
    tx_hash                TEXT           NOT NULL,
    log_index              INT            NOT NULL, -- -1 for a native transfer
    block_number           BIGINT         NOT NULL,
    block_hash             TEXT           NOT NULL,
    payment_link_id        UUID           NOT NULL,
    network                TEXT           NOT NULL,
    from_address           TEXT           NOT NULL,
    amount_base_units      NUMERIC(78, 0) NOT NULL,
    decimals               INT            NOT NULL,
    status                 TEXT           NOT NULL CHECK (status IN ('pending', 'confirmed', 'failed')),
    confirmations          INT            NOT NULL,
    -- Set when a reorganisation removed its block; cleared when the rescan finds it again.
    orphaned               BOOLEAN        NOT NULL DEFAULT FALSE,
    reported_status        TEXT,
    reported_confirmations INT,
    created_at             TIMESTAMPTZ    NOT NULL,
    updated_at             TIMESTAMPTZ    NOT NULL,
    CONSTRAINT detected_transfer_unique UNIQUE (chain_id, tx_hash, log_index)
);

CREATE INDEX detected_transfer_open ON detected_transfer (chain_id, status) WHERE status = 'pending';
CREATE INDEX detected_transfer_unreported ON detected_transfer (chain_id)
    WHERE reported_status IS DISTINCT FROM status OR reported_confirmations IS DISTINCT FROM confirmations;
