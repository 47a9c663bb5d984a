-- Refunds and outgoing transfers. Deposit addresses are the merchant's own (derived from its xpub): the service holds
-- no key, so a refund is a request the merchant's wallet pays from the deposit address, and the service recognises
-- that payment when chain-watcher reports the address's outgoing transfers. An outgoing transfer that pays no open
-- refund is a withdrawal (the merchant sweeping the address).

-- How much of a transfer completed refunds returned; the transfer reads 'refunded' once it is all returned. What the
-- link received is crypto_amount - refunded_amount of its confirmed transfers of its asset.
ALTER TABLE link_transaction
    ADD COLUMN refunded_amount NUMERIC(38, 18) NOT NULL DEFAULT 0
        CHECK (refunded_amount >= 0 AND refunded_amount <= crypto_amount);

-- transaction_id: the transfer refunded (any asset); NULL for a refund of the link's money in the link's token.
-- status: initiated (asked for, nothing seen on chain) → pending (its transfer is seen) → completed (confirmed);
--   failed with failure_reason 'abandoned' (nothing seen before expires_at) or 'reorganised' (its transfer was taken
--   away by a reorganisation). A failed refund claims nothing.
-- token_contract: lower case, NULL for the native coin; amount in whole units, amount_base_units the same in the
--   token's smallest unit; from_address is the link's deposit address, to_address (EIP-55) where the money goes.
-- tx_hash, log_index: the outgoing transfer that paid it, once one is seen.
CREATE TABLE link_refund (
    id                UUID PRIMARY KEY,
    payment_link_id   UUID            NOT NULL REFERENCES payment_link (id),
    transaction_id    UUID            REFERENCES link_transaction (id),
    status            TEXT            NOT NULL CHECK (status IN ('initiated', 'pending', 'completed', 'failed')),
    failure_reason    TEXT            CHECK (failure_reason IN ('abandoned', 'reorganised')),
    network           TEXT            NOT NULL,
    chain_id          BIGINT          NOT NULL,
    token_contract    TEXT            CHECK (token_contract ~ '^0x[0-9a-f]{40}$'),
    asset             TEXT            NOT NULL,
    decimals          INT             NOT NULL CHECK (decimals BETWEEN 0 AND 36),
    amount            NUMERIC(38, 18) NOT NULL CHECK (amount > 0),
    amount_base_units NUMERIC(78, 0)  NOT NULL CHECK (amount_base_units > 0),
    from_address      TEXT            NOT NULL,
    to_address        TEXT            NOT NULL,
    expires_at        TIMESTAMPTZ     NOT NULL,
    tx_hash           TEXT,
    log_index         INT,
    created_at        TIMESTAMPTZ     NOT NULL,
    updated_at        TIMESTAMPTZ     NOT NULL,
    CONSTRAINT link_refund_failure_reason CHECK ((status = 'failed') = (failure_reason IS NOT NULL))
);

CREATE INDEX link_refund_link ON link_refund (payment_link_id, created_at DESC, id DESC);
CREATE INDEX link_refund_transaction ON link_refund (transaction_id) WHERE transaction_id IS NOT NULL;
-- The sweeper abandons initiated refunds past expires_at.
CREATE INDEX link_refund_initiated_expiry ON link_refund (expires_at) WHERE status = 'initiated';

-- A transfer out of a link's deposit address, identified like an incoming one by (network, tx_hash, log_index):
-- log_index -1 for the native coin. refund_id: the refund it paid; NULL for a withdrawal.
CREATE TABLE link_outgoing_transfer (
    id                     UUID PRIMARY KEY,
    payment_link_id        UUID            NOT NULL REFERENCES payment_link (id),
    network                TEXT            NOT NULL,
    tx_hash                TEXT            NOT NULL,
    log_index              INT             NOT NULL CHECK (log_index >= -1),
    token_contract         TEXT            CHECK (token_contract ~ '^0x[0-9a-f]{40}$'),
    asset                  TEXT            NOT NULL,
    from_address           TEXT            NOT NULL,
    to_address             TEXT            NOT NULL,
    crypto_amount          NUMERIC(38, 18) NOT NULL CHECK (crypto_amount >= 0),
    status                 TEXT            NOT NULL CHECK (status IN ('pending', 'confirmed', 'failed')),
    confirmations          INT             NOT NULL DEFAULT 0 CHECK (confirmations >= 0),
    required_confirmations INT             CHECK (required_confirmations >= 1),
    refund_id              UUID            REFERENCES link_refund (id),
    created_at             TIMESTAMPTZ     NOT NULL,
    updated_at             TIMESTAMPTZ     NOT NULL,
    -- Watchers may report the same transfer many times; it is recorded once.
    CONSTRAINT link_outgoing_transfer_unique UNIQUE (network, tx_hash, log_index)
);

CREATE INDEX link_outgoing_transfer_link ON link_outgoing_transfer (payment_link_id, created_at DESC, id DESC);
