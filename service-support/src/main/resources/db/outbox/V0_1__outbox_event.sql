-- Outbox of domain events, shipped by service-support and applied by each producing service's Flyway
-- (spring.flyway.locations includes classpath:db/outbox). Version 0.x keeps it ahead of the service's own scripts.
CREATE TABLE outbox_event (
    position       BIGSERIAL PRIMARY KEY,
    event_id       UUID        NOT NULL UNIQUE,
    topic          TEXT        NOT NULL,
    record_key     TEXT        NOT NULL,
    event_type     TEXT        NOT NULL,
    aggregate_type TEXT        NOT NULL,
    aggregate_id   TEXT        NOT NULL,
    payload        TEXT        NOT NULL, -- the envelope JSON exactly as published
    created_at     TIMESTAMPTZ NOT NULL,
    published_at   TIMESTAMPTZ
);

CREATE INDEX outbox_event_unpublished ON outbox_event (position) WHERE published_at IS NULL;
