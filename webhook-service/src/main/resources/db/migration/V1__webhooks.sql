-- Merchant webhook endpoints, the events received from Kafka, and one delivery (with its attempts) per event and
-- subscribed endpoint.

CREATE TABLE webhook_endpoint (
    id               UUID PRIMARY KEY,
    merchant_id      UUID        NOT NULL,
    mode             TEXT        NOT NULL CHECK (mode IN ('test', 'live')),
    url              TEXT        NOT NULL,
    description      TEXT,
    event_types      TEXT[]      NOT NULL,
    secret_encrypted BYTEA       NOT NULL, -- AES-GCM: 12-byte nonce followed by ciphertext and tag
    enabled          BOOLEAN     NOT NULL DEFAULT TRUE,
    created_at       TIMESTAMPTZ NOT NULL,
    updated_at       TIMESTAMPTZ NOT NULL,
    deleted_at       TIMESTAMPTZ
);

CREATE INDEX webhook_endpoint_merchant ON webhook_endpoint (merchant_id, mode) WHERE deleted_at IS NULL;

-- Each domain event once (consumers dedupe on its id); body is exactly what is sent to endpoints.
CREATE TABLE webhook_event (
    id          UUID PRIMARY KEY,
    merchant_id UUID        NOT NULL,
    mode        TEXT        NOT NULL,
    event_type  TEXT        NOT NULL,
    body        TEXT        NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL, -- when the event happened in its service
    received_at TIMESTAMPTZ NOT NULL,
    source      TEXT        NOT NULL  -- topic/partition/offset it was read from
);

CREATE TABLE webhook_delivery (
    id               UUID PRIMARY KEY,
    event_id         UUID        NOT NULL REFERENCES webhook_event (id),
    endpoint_id      UUID        NOT NULL REFERENCES webhook_endpoint (id),
    merchant_id      UUID        NOT NULL,
    mode             TEXT        NOT NULL,
    event_type       TEXT        NOT NULL,
    status           TEXT        NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
    attempts         INT         NOT NULL DEFAULT 0, -- all attempts ever made
    cycle_attempts   INT         NOT NULL DEFAULT 0, -- attempts in the current schedule (reset by retry/recover)
    cycle_started_at TIMESTAMPTZ NOT NULL,
    next_attempt_at  TIMESTAMPTZ,
    last_attempt_at  TIMESTAMPTZ,
    last_status_code INT,
    last_error       TEXT,
    succeeded_at     TIMESTAMPTZ,
    created_at       TIMESTAMPTZ NOT NULL,
    CONSTRAINT webhook_delivery_once UNIQUE (event_id, endpoint_id)
);

-- The scheduler's scan: due pending deliveries in time order.
CREATE INDEX webhook_delivery_due ON webhook_delivery (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_delivery_endpoint ON webhook_delivery (endpoint_id, created_at DESC);

CREATE TABLE webhook_attempt (
    id              BIGSERIAL PRIMARY KEY,
    delivery_id     UUID        NOT NULL REFERENCES webhook_delivery (id),
    attempt_number  INT         NOT NULL,
    started_at      TIMESTAMPTZ NOT NULL,
    latency_ms      BIGINT      NOT NULL,
    status_code     INT,
    outcome         TEXT        NOT NULL,
    error           TEXT,
    response_excerpt TEXT
);

CREATE INDEX webhook_attempt_delivery ON webhook_attempt (delivery_id, attempt_number);

-- Records that could not be read as events; kept for operators instead of blocking their partition.
CREATE TABLE parked_record (
    id          BIGSERIAL PRIMARY KEY,
    topic       TEXT        NOT NULL,
    partition   INT         NOT NULL,
    record_offset BIGINT    NOT NULL,
    record_key  TEXT,
    value       TEXT,
    reason      TEXT        NOT NULL,
    parked_at   TIMESTAMPTZ NOT NULL,
    CONSTRAINT parked_record_once UNIQUE (topic, partition, record_offset)
);
