-- What each API key may do (README, "Scoped keys"): a non-empty set of read, payment_links, subscriptions, webhooks
-- and account. Keys made before scopes existed keep every one (the default fills them in); a key's scopes never
-- change afterwards.

ALTER TABLE api_key
    ADD COLUMN scopes text[] NOT NULL DEFAULT ARRAY['read', 'payment_links', 'subscriptions', 'webhooks', 'account'],
    ADD CONSTRAINT api_key_scopes_known CHECK (
        cardinality(scopes) >= 1
        AND scopes <@ ARRAY['read', 'payment_links', 'subscriptions', 'webhooks', 'account']);
