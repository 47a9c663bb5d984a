-- The Idempotency-Key store of IdempotencyStore, for every service that takes the header (idempotency.enabled: true
-- and classpath:db/idempotency in spring.flyway.locations): a key's first response is kept for the retention and
-- replayed to retries with the same body; IdempotencyPurge deletes keys past it by created_at.
CREATE TABLE idempotency_key (
    merchant_id   UUID        NOT NULL,
    mode          TEXT        NOT NULL,
    key           TEXT        NOT NULL,
    request_hash  TEXT        NOT NULL,
    status_code   INT         NOT NULL,
    response_body TEXT        NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (merchant_id, mode, key)
);

CREATE INDEX idempotency_key_created_at ON idempotency_key (created_at);
