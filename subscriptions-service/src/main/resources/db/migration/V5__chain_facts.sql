-- Subscriptions follow the chain: the subscription contract's logs, reported by the chain watcher once confirmed,
-- are the only source of enrolment, payments, misses and cancellations.

-- Each reported log once, per (chain, transaction, log index): a repeated report answers the stored outcome.
--   subscription_id  the on-chain subscription the event is about (topic 1), null for a plan's revocation
--   outcome          what the log did: applied, unmatched (no link knew it yet: an enrolment reported later applies
--                    it), duplicate (a period already paid), ignored (another contract or event)
--   removed          a reorganisation took it away after it was confirmed
CREATE TABLE chain_log (
    chain_id        BIGINT      NOT NULL,
    tx_hash         TEXT        NOT NULL,
    log_index       INT         NOT NULL CHECK (log_index >= 0),
    contract        TEXT        NOT NULL,
    block_number    BIGINT      NOT NULL CHECK (block_number >= 0),
    block_hash      TEXT        NOT NULL,
    block_time      TIMESTAMPTZ NOT NULL,
    topics          TEXT[]      NOT NULL,
    data            TEXT        NOT NULL,
    confirmations   INT         NOT NULL,
    subscription_id TEXT,
    outcome         TEXT        NOT NULL CHECK (outcome IN ('applied', 'unmatched', 'duplicate', 'ignored')),
    removed         BOOLEAN     NOT NULL DEFAULT FALSE,
    received_at     TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (chain_id, tx_hash, log_index)
);

CREATE INDEX chain_log_unmatched ON chain_log (subscription_id, block_number, log_index) WHERE outcome = 'unmatched';
CREATE INDEX chain_log_unmatched_tx ON chain_log (tx_hash) WHERE outcome = 'unmatched';

-- A link is pending from the enrolment until the chain confirms it (links made before this rule are kept as
-- subscribed); chain_subscription_id is the contract's bytes32 id. One link per merchant and mode per on-chain
-- subscription: another merchant replaying the same plan cannot take a customer's subscription from its owner.
ALTER TABLE subscription_link
    ADD COLUMN chain_status TEXT NOT NULL DEFAULT 'subscribed'
        CHECK (chain_status IN ('pending', 'subscribed', 'failed')),
    ADD COLUMN chain_subscription_id TEXT;
ALTER TABLE subscription_link ALTER COLUMN chain_status DROP DEFAULT;
CREATE UNIQUE INDEX subscription_link_on_chain ON subscription_link (merchant_id, mode, chain_subscription_id);
CREATE INDEX subscription_link_awaiting ON subscription_link (lower(subscribe_hash)) WHERE chain_status <> 'subscribed';
CREATE INDEX subscription_link_pending ON subscription_link (updated_at) WHERE chain_status = 'pending';

-- Payments come from Charged logs: one transaction may collect several subscriptions (one log each), and a period is
-- paid once however often a reorganisation makes the contract collect it again.
ALTER TABLE subscription_payment ADD COLUMN log_index INT CHECK (log_index >= 0);
ALTER TABLE subscription_payment DROP CONSTRAINT subscription_payment_merchant_tx;
CREATE UNIQUE INDEX subscription_payment_merchant_tx
    ON subscription_payment (merchant_id, mode, network_id, tx_hash, COALESCE(log_index, -1));
CREATE UNIQUE INDEX subscription_payment_period
    ON subscription_payment (link_id, starts_at) WHERE status = 'confirmed' AND log_index IS NOT NULL;

-- PlanRevoked logs find plans by their on-chain id.
CREATE INDEX plan_on_chain ON plan (lower(plan_id));
