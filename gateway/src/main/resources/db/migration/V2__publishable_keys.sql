-- Publishable keys: the merchant_key customer-side code may carry. Not secrets, so kept in full (the admin listing
-- shows them again); revocation, not secrecy, is the remedy for a key being misused.

CREATE TABLE publishable_key (
    id            uuid        PRIMARY KEY,
    key_value     text        NOT NULL UNIQUE CHECK (key_value ~ '^pk_(test|live)_[A-Z2-7]{32}$'),
    merchant_id   uuid        NOT NULL REFERENCES merchant (id),
    mode          varchar(4)  NOT NULL CHECK (mode IN ('test', 'live')),
    status        varchar(8)  NOT NULL CHECK (status IN ('active', 'revoked')),
    created_at    timestamptz NOT NULL,
    last_used_at  timestamptz,
    revoked_at    timestamptz,
    CHECK ((status = 'revoked') = (revoked_at IS NOT NULL)),
    -- The prefix decides the mode, as for API keys.
    CHECK (substr(key_value, 4, 4) = mode)
);

CREATE INDEX publishable_key_merchant_idx ON publishable_key (merchant_id, created_at);
