-- The keeper (README, "Keeper"): calls each chain's subscription contract's collect at the due times, from a gas-only
-- key. It learns the subscriptions from the contract logs stored here, keeps their next check time, and records every
-- transaction it signs before broadcasting it, so neither a restart nor a second instance sends one twice.

-- Whether the keeper has taken the log into account since it was stored or last changed (found again in another
-- block, orphaned by a reorganisation). Logs of a chain without a keeper stay unread.
ALTER TABLE contract_log ADD COLUMN keeper_read BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX contract_log_keeper_unread ON contract_log (chain_id) WHERE NOT keeper_read;

-- A subscription the keeper knows of (from a Subscribed, Charged, Missed or Cancelled log). Times are chain times
-- (block timestamps), never this host's clock. next_due, grace_seconds and ends_at are getSubscription's answer when
-- last read.
CREATE TABLE keeper_subscription (
    chain_id        BIGINT      NOT NULL,
    subscription_id TEXT        NOT NULL, -- 0x-hex bytes32, lower-case
    contract        TEXT        NOT NULL, -- lower-case
    -- FALSE once cancelled (a Cancelled log, or getSubscription says so): never checked again unless stale.
    active          BOOLEAN     NOT NULL,
    -- A log of it arrived, or a collect of it ended: its state is read again before anything else is done.
    stale           BOOLEAN     NOT NULL,
    next_due        TIMESTAMPTZ,
    grace_seconds   BIGINT,
    ends_at         TIMESTAMPTZ, -- NULL: never ends
    missed_in_row   INT,
    -- When to look again: the due time, a retry within the grace, or just after the grace.
    next_check_at   TIMESTAMPTZ NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (chain_id, subscription_id)
);

CREATE INDEX keeper_subscription_due ON keeper_subscription (chain_id, next_check_at) WHERE active OR stale;

-- Every transaction the keeper signed, recorded before it was broadcast. The transactions of one (keeper, nonce) are
-- a collect and its replacements (same nonce, fees raised); at most one of them is ever mined.
--   pending   the newest of its nonce, not mined (or not known to be: broadcast again while the node lacks it)
--   replaced  an older one of its nonce; may still be mined instead of the newest
--   mined     in a block, fewer than the network's confirmations deep: checked again each pass
--   confirmed mined and deep enough: final
--   abandoned another transaction took its nonce (one of ours, or one sent with the key elsewhere)
CREATE TABLE keeper_transaction (
    chain_id                 BIGINT         NOT NULL,
    tx_hash                  TEXT           NOT NULL, -- lower-case
    keeper_address           TEXT           NOT NULL, -- lower-case
    nonce                    BIGINT         NOT NULL CHECK (nonce >= 0),
    -- The subscription collected; NULL for a 0-value transfer to the keeper itself that replaced a collect which
    -- would no longer succeed (it only uses up the nonce).
    subscription_id          TEXT,
    status                   TEXT           NOT NULL
        CHECK (status IN ('pending', 'replaced', 'mined', 'confirmed', 'abandoned')),
    gas_limit                NUMERIC(78, 0) NOT NULL,
    -- EIP-1559 fees; on a chain without a base fee, max_fee_per_gas is the gas price and priority_fee_per_gas NULL.
    max_fee_per_gas          NUMERIC(78, 0) NOT NULL,
    priority_fee_per_gas     NUMERIC(78, 0),
    raw                      TEXT           NOT NULL, -- the signed transaction, 0x-hex: broadcast again as it is
    -- The chain's time when it was recorded: stuck-after counts from it.
    sent_chain_time          TIMESTAMPTZ    NOT NULL,
    block_number             BIGINT,
    succeeded                BOOLEAN,       -- the receipt's status, once mined
    created_at               TIMESTAMPTZ    NOT NULL,
    updated_at               TIMESTAMPTZ    NOT NULL,
    PRIMARY KEY (chain_id, tx_hash)
);

-- One newest transaction per nonce, and at most one outstanding collect per subscription: an instance that lost its
-- lease mid-pass cannot record (and so never broadcasts) a second one.
CREATE UNIQUE INDEX keeper_transaction_nonce ON keeper_transaction (chain_id, keeper_address, nonce)
    WHERE status IN ('pending', 'mined');
CREATE UNIQUE INDEX keeper_transaction_subscription ON keeper_transaction (chain_id, subscription_id)
    WHERE status IN ('pending', 'mined');
CREATE INDEX keeper_transaction_open ON keeper_transaction (chain_id, keeper_address, nonce)
    WHERE status IN ('pending', 'replaced', 'mined');
