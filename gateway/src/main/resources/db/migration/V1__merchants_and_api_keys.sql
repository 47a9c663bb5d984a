-- Merchants and their API keys: the gateway's own registry. Other services never read these tables.

CREATE TABLE merchant (
    id          uuid        PRIMARY KEY,
    name        text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    email       text        NOT NULL CHECK (length(email) BETWEEN 3 AND 320),
    created_at  timestamptz NOT NULL
);

CREATE TABLE api_key (
    id              uuid        PRIMARY KEY,
    -- Lowercase hex SHA-256 of the full key. The plaintext key is shown once at creation and never stored; the keys
    -- carry 160 random bits, so an unsalted fast hash is enough to make a leaked table useless.
    key_sha256      char(64)    NOT NULL UNIQUE,
    -- First 12 characters (e.g. mk_test_ABCD) to recognise a key in logs and listings.
    display_prefix  varchar(12) NOT NULL,
    merchant_id     uuid        NOT NULL REFERENCES merchant (id),
    mode            varchar(4)  NOT NULL CHECK (mode IN ('test', 'live')),
    algorithm       varchar(16) NOT NULL CHECK (algorithm IN ('ed25519', 'rsa-pss-sha256')),
    public_key_pem  text        NOT NULL,
    status          varchar(8)  NOT NULL CHECK (status IN ('active', 'revoked')),
    created_at      timestamptz NOT NULL,
    last_used_at    timestamptz,
    revoked_at      timestamptz,
    CHECK ((status = 'revoked') = (revoked_at IS NOT NULL))
);

CREATE INDEX api_key_merchant_idx ON api_key (merchant_id, created_at);
