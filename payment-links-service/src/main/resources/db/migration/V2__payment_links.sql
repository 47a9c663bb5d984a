CREATE TABLE payment_link (
    id                  UUID PRIMARY KEY,
    merchant_id         UUID           NOT NULL,
    mode                TEXT           NOT NULL CHECK (mode IN ('test', 'live')),
    payment_name        TEXT           NOT NULL,
    description         TEXT,
    amount              NUMERIC(38, 18) NOT NULL CHECK (amount > 0),
    currency            TEXT           NOT NULL,
    network             TEXT           NOT NULL,
    payment_status      TEXT           NOT NULL
        CHECK (payment_status IN ('pending', 'processing', 'completed', 'expired', 'cancelled')),
    expires_at          TIMESTAMPTZ    NOT NULL,
    max_uses            INT            NOT NULL CHECK (max_uses > 0),
    current_uses        INT            NOT NULL CHECK (current_uses >= 0),
    is_active           BOOLEAN        NOT NULL,
    customer_id         TEXT           NOT NULL,
    customer_name       TEXT,
    customer_email      TEXT,
    product_name        TEXT,
    product_description TEXT,
    cart                JSON,
    order_id            TEXT           NOT NULL,
    auto_fill           BOOLEAN        NOT NULL,
    success_url         TEXT,
    cancel_url          TEXT,
    webhook_metadata    JSON,
    checkout_mode       TEXT,
    origin              TEXT,
    created_at          TIMESTAMPTZ    NOT NULL,
    updated_at          TIMESTAMPTZ    NOT NULL,
    -- A merchant's order id names one link per mode: a second create with it is a 409.
    CONSTRAINT payment_link_order_id_unique UNIQUE (merchant_id, mode, order_id)
);

CREATE INDEX payment_link_merchant_created ON payment_link (merchant_id, mode, created_at DESC, id);
-- The expiry sweeper scans only links that can still expire.
CREATE INDEX payment_link_pending_expiry ON payment_link (expires_at) WHERE payment_status = 'pending';

-- Blockchain transactions recorded against a link by a checkout or chain watcher.
CREATE TABLE link_transaction (
    id              UUID PRIMARY KEY,
    payment_link_id UUID            NOT NULL REFERENCES payment_link (id),
    network         TEXT            NOT NULL,
    tx_hash         TEXT            NOT NULL,
    payer_address   TEXT            NOT NULL,
    crypto_amount   NUMERIC(38, 18) NOT NULL CHECK (crypto_amount >= 0),
    fiat_amount     NUMERIC(38, 18) CHECK (fiat_amount >= 0),
    status          TEXT            NOT NULL CHECK (status IN ('pending', 'confirmed', 'failed', 'refunded')),
    confirmations   INT             NOT NULL DEFAULT 0 CHECK (confirmations >= 0),
    counted_as_use  BOOLEAN         NOT NULL DEFAULT FALSE,
    created_at      TIMESTAMPTZ     NOT NULL,
    updated_at      TIMESTAMPTZ     NOT NULL,
    -- Watchers may report the same transaction many times; it is recorded once.
    CONSTRAINT link_transaction_network_hash_unique UNIQUE (network, tx_hash)
);

CREATE INDEX link_transaction_link ON link_transaction (payment_link_id);

-- The idempotency_key table is service-support's (db/idempotency).
