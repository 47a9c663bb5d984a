-- The keeper collects only what the platform answers for (README, "Keeper", "Scope"): before it reads or collects a
-- subscription it asks subscriptions-service (POST /internal/keeper/scope), which alone knows whether a link it bound
-- holds the subscription and is neither stopped nor expired. The answer is kept here.
--   scope         unknown: never asked (every subscription learnt from the logs starts so, and so do those from before);
--                 kept: collected, while the latest answer says so (asked again before each check);
--                 foreign: not collected (nobody bound it, or its link stopped, expired or its plan was revoked),
--                 asked again at ask_again_at, each time later (ten seconds, doubling, at most ten minutes)
--   merchant_id   the merchant account whose link holds it: each pass gives every merchant its turn in order
--   scope_reason  why it is foreign (subscriptions-service's reason: not_bound, stopped, expired, plan_revoked, ...)
--   foreign_asks  answers in a row that said foreign (the back-off)
ALTER TABLE keeper_subscription
    ADD COLUMN scope        TEXT NOT NULL DEFAULT 'unknown' CHECK (scope IN ('unknown', 'kept', 'foreign')),
    ADD COLUMN merchant_id  UUID,
    ADD COLUMN scope_reason TEXT,
    ADD COLUMN foreign_asks INT  NOT NULL DEFAULT 0 CHECK (foreign_asks >= 0),
    ADD COLUMN ask_again_at TIMESTAMPTZ;

CREATE INDEX keeper_subscription_to_ask ON keeper_subscription (chain_id, ask_again_at NULLS FIRST)
    WHERE scope <> 'kept' AND (active OR stale);
