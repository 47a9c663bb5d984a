-- The merchant's security log (README, "Security log"): who changed what about the account's access and where its
-- money goes. Rows are only ever added: the trigger refuses every UPDATE and DELETE, so no route, bug or operator
-- session can rewrite the history (the table's owner can still drop the trigger; that is a deliberate act in the
-- database's own log).

CREATE TABLE security_event (
    id              uuid        PRIMARY KEY,
    merchant_id     uuid        NOT NULL REFERENCES merchant (id),
    mode            varchar(4)  NOT NULL CHECK (mode IN ('test', 'live')),
    action          text        NOT NULL CHECK (action IN (
                        'api_key.created', 'api_key.revoked', 'api_key.first_used', 'publishable_key.revoked',
                        'receiving_key.changed', 'webhook_endpoint.created', 'webhook_endpoint.deleted',
                        'webhook_endpoint.enabled', 'webhook_endpoint.secret_rotated',
                        'production_access.requested')),
    -- The API key that made the request (for api_key.first_used: the key itself), by id and loggable prefix.
    key_id          uuid        NOT NULL,
    key_prefix      varchar(12) NOT NULL,
    -- The client's address as the gateway resolved it (trusted proxies' X-Forwarded-For honoured).
    client_address  text        NOT NULL,
    -- What the action was about: the key, the webhook endpoint; null when the path names nothing.
    target_id       uuid,
    created_at      timestamptz NOT NULL
);

CREATE INDEX security_event_merchant_idx ON security_event (merchant_id, mode, created_at DESC, id DESC);

-- One first use per key, however many instances saw it at once.
CREATE UNIQUE INDEX security_event_first_use ON security_event (key_id) WHERE action = 'api_key.first_used';

CREATE FUNCTION security_event_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'security_event is append-only: % refused', TG_OP;
END;
$$;

CREATE TRIGGER security_event_append_only
    BEFORE UPDATE OR DELETE ON security_event
    FOR EACH ROW EXECUTE FUNCTION security_event_append_only();

CREATE TRIGGER security_event_no_truncate
    BEFORE TRUNCATE ON security_event
    FOR EACH STATEMENT EXECUTE FUNCTION security_event_append_only();
