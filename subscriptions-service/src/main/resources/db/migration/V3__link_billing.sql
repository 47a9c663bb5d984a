-- Billing state of a link, kept by payments and the billing scheduler:
--   period_due_at          start of the oldest period neither paid nor missed (trial end, or enrolment without trial);
--   missed_periods         periods missed in a row since the last payment (auto-cancel counts these);
--   expiring_notified_at   when subscription.expiring was written (once per link).
-- And the subscription's id on the subscription contract, when the wallet reports it at enrolment.
ALTER TABLE subscription_link
    ADD COLUMN subscription_onchain_id BIGINT CHECK (subscription_onchain_id >= 0),
    ADD COLUMN period_due_at TIMESTAMPTZ,
    ADD COLUMN missed_periods INT NOT NULL DEFAULT 0 CHECK (missed_periods >= 0),
    ADD COLUMN expiring_notified_at TIMESTAMPTZ;

-- Wallet lookups on the public route compare addresses in any letter case.
CREATE INDEX subscription_link_wallet ON subscription_link (lower(wallet_address));

-- The scheduler's scan: active links whose period is due.
CREATE INDEX subscription_link_due ON subscription_link (period_due_at) WHERE is_active;
CREATE INDEX subscription_link_expiring ON subscription_link (expires_at)
    WHERE is_active AND expiring_notified_at IS NULL AND expires_at IS NOT NULL;
