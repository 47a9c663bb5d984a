-- A stop stops the money (README, "Stops and the keeper").

-- 'ended': the contract ended the subscription (its Cancelled log: the subscriber, the merchant, misses in a row or its
-- end). Nothing can collect it any more and the link cannot restart; until then a stopped link's subscription still
-- stands on chain, and its answers offer the contract's cancel.
ALTER TABLE subscription_link DROP CONSTRAINT subscription_link_chain_status_check;
ALTER TABLE subscription_link
    ADD CONSTRAINT subscription_link_chain_status_check
        CHECK (chain_status IN ('pending', 'subscribed', 'failed', 'ended'));
DROP INDEX subscription_link_awaiting;
CREATE INDEX subscription_link_awaiting ON subscription_link (lower(subscribe_hash))
    WHERE chain_status IN ('pending', 'failed');

-- A period someone collected while the link was stopped (not billed, or past its end): the money moved on chain and is
-- recorded, flagged so the merchant can pay it back.
ALTER TABLE subscription_payment ADD COLUMN collected_after_stop BOOLEAN NOT NULL DEFAULT FALSE;
