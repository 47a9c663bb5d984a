-- Fair delivery scheduling and endpoints disabled after failing for days.

-- Until when an instance holds a claimed delivery (the attempt in flight); cleared when its result is recorded. The
-- scheduler counts live leases per endpoint and per merchant to cap how many attempts each has in flight at once.
ALTER TABLE webhook_delivery ADD COLUMN leased_until TIMESTAMPTZ;

CREATE INDEX webhook_delivery_leased ON webhook_delivery (leased_until) WHERE leased_until IS NOT NULL;

-- The claim's look-up per endpoint: its due deliveries, oldest first.
CREATE INDEX webhook_delivery_endpoint_due ON webhook_delivery (endpoint_id, next_attempt_at) WHERE status = 'pending';

-- An endpoint's health: since when every recorded attempt has failed (NULL after a success) and how many attempts
-- that is; and, once disabled because of it, when and why. enabled = FALSE with deleted_at NULL is a disabled
-- endpoint: its deliveries are kept and held until the merchant enables it again.
ALTER TABLE webhook_endpoint
    ADD COLUMN failing_since   TIMESTAMPTZ,
    ADD COLUMN failed_attempts INT NOT NULL DEFAULT 0,
    ADD COLUMN disabled_at     TIMESTAMPTZ,
    ADD COLUMN disabled_reason TEXT;
