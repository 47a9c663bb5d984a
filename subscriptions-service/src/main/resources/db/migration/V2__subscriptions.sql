-- Plans, subscribers, subscription links and their payments. Every merchant-owned row carries merchant_id and mode;
-- every query filters on both.

-- A plan's signed terms are stored exactly as signed (addresses in EIP-55 form, integers unbounded by SQL types),
-- with the digest and signature, so the signature can be re-verified at any time.
CREATE TABLE plan (
    id                       UUID PRIMARY KEY,
    merchant_id              UUID        NOT NULL,
    mode                     TEXT        NOT NULL CHECK (mode IN ('test', 'live')),
    network_id               UUID        NOT NULL REFERENCES network (id),
    token_id                 UUID        NOT NULL REFERENCES token (id),
    kind                     TEXT        NOT NULL CHECK (kind IN ('amount', 'value')),
    merchant_address         TEXT        NOT NULL,
    destination_address      TEXT        NOT NULL,
    token_address            TEXT        NOT NULL,
    amount                   NUMERIC(78, 0) NOT NULL CHECK (amount >= 0),
    signed_currency          TEXT        NOT NULL,
    signed_value             TEXT        NOT NULL,
    billed_amount            NUMERIC(78, 0) NOT NULL CHECK (billed_amount > 0),
    interval_seconds         BIGINT      NOT NULL CHECK (interval_seconds >= 0),
    trial_period             BIGINT      NOT NULL CHECK (trial_period >= 0),
    max_arrears              BIGINT      NOT NULL CHECK (max_arrears >= 0),
    auto_cancel_after_missed BIGINT      NOT NULL CHECK (auto_cancel_after_missed >= 0),
    subscribe_deadline       BIGINT      NOT NULL CHECK (subscribe_deadline >= 0),
    plan_nonce               BIGINT      NOT NULL CHECK (plan_nonce >= 0),
    plan_id                  TEXT        NOT NULL,
    digest                   TEXT        NOT NULL,
    merchant_sig             TEXT        NOT NULL,
    revoked                  BOOLEAN     NOT NULL DEFAULT FALSE,
    source                   TEXT        NOT NULL,
    name                     TEXT        NOT NULL,
    description              TEXT,
    metadata_uri             TEXT,
    status                   TEXT        NOT NULL CHECK (status IN ('active', 'deprecated')),
    deprecated_at            TIMESTAMPTZ,
    created_at               TIMESTAMPTZ NOT NULL,
    updated_at               TIMESTAMPTZ NOT NULL,
    -- One plan per signed nonce of a merchant address on a network: a signature cannot make two plans.
    UNIQUE (merchant_id, mode, network_id, merchant_address, plan_nonce)
);

CREATE INDEX plan_merchant_created ON plan (merchant_id, mode, created_at DESC, id DESC);

CREATE TABLE subscriber (
    id                 UUID PRIMARY KEY,
    merchant_id        UUID        NOT NULL,
    mode               TEXT        NOT NULL CHECK (mode IN ('test', 'live')),
    plan_id            UUID        NOT NULL REFERENCES plan (id),
    customer_id        TEXT,
    customer_name      TEXT,
    customer_email     TEXT,
    webhook_metadata   JSONB,
    success_return_url TEXT,
    failure_return_url TEXT,
    status             TEXT        NOT NULL
        CHECK (status IN ('invitation_sent', 'active', 'inactive', 'suspended', 'cancelled')),
    created_at         TIMESTAMPTZ NOT NULL,
    updated_at         TIMESTAMPTZ NOT NULL
);

CREATE INDEX subscriber_merchant_created ON subscriber (merchant_id, mode, created_at DESC, id DESC);
CREATE INDEX subscriber_plan ON subscriber (plan_id, status);

-- One subscriber's enrolment: the wallet that approved billing and what it owes. Created by the public enrolment
-- route; read by the merchant routes.
CREATE TABLE subscription_link (
    id             UUID PRIMARY KEY,
    merchant_id    UUID        NOT NULL,
    mode           TEXT        NOT NULL CHECK (mode IN ('test', 'live')),
    plan_id        UUID        NOT NULL REFERENCES plan (id),
    subscriber_id  UUID        NOT NULL UNIQUE REFERENCES subscriber (id),
    wallet_address TEXT        NOT NULL,
    subscribe_hash TEXT,
    approvals      JSONB       NOT NULL DEFAULT '[]',
    owed           NUMERIC(78, 0) NOT NULL DEFAULT 0 CHECK (owed >= 0),
    paid_periods   INT         NOT NULL DEFAULT 0 CHECK (paid_periods >= 0),
    locked         BOOLEAN     NOT NULL DEFAULT FALSE,
    subscribed_at  TIMESTAMPTZ,
    trial_ends_at  TIMESTAMPTZ,
    expires_at     TIMESTAMPTZ,
    is_active      BOOLEAN     NOT NULL DEFAULT TRUE,
    created_at     TIMESTAMPTZ NOT NULL,
    updated_at     TIMESTAMPTZ NOT NULL
);

CREATE INDEX subscription_link_merchant_created ON subscription_link (merchant_id, mode, created_at DESC, id DESC);

-- A payment collected for a link's billing period, idempotent on (network, tx_hash).
CREATE TABLE subscription_payment (
    id                  UUID PRIMARY KEY,
    merchant_id         UUID        NOT NULL,
    mode                TEXT        NOT NULL CHECK (mode IN ('test', 'live')),
    link_id             UUID        NOT NULL REFERENCES subscription_link (id),
    network_id          UUID        NOT NULL REFERENCES network (id),
    tx_hash             TEXT        NOT NULL,
    block_number        BIGINT,
    block_hash          TEXT,
    confirmations       INT         NOT NULL DEFAULT 0,
    amount              NUMERIC(78, 0) NOT NULL CHECK (amount > 0),
    user_wallet_address TEXT        NOT NULL,
    status              TEXT        NOT NULL CHECK (status IN ('pending', 'confirmed', 'failed')),
    paid_at             TIMESTAMPTZ,
    starts_at           TIMESTAMPTZ NOT NULL,
    ends_at             TIMESTAMPTZ NOT NULL,
    next_billing_at     TIMESTAMPTZ,
    created_at          TIMESTAMPTZ NOT NULL,
    updated_at          TIMESTAMPTZ NOT NULL,
    UNIQUE (network_id, tx_hash)
);

CREATE INDEX subscription_payment_link ON subscription_payment (link_id, starts_at);

-- The idempotency_key table is service-support's (db/idempotency).
