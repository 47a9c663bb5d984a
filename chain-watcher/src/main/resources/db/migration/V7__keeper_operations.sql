-- Keeper operations (README, "Keeper: fees, refusals and giving up").

-- accepted: a node took the transaction (its broadcast answered a hash, a node knew it, or it was mined). Only an
-- accepted transaction is ever replaced with higher fees: one no node took is broadcast again as it is, so an outage
-- of the RPC node never drives fees up. Transactions recorded before this column are taken as accepted.
ALTER TABLE keeper_transaction ADD COLUMN accepted BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE keeper_transaction ALTER COLUMN accepted SET DEFAULT FALSE;

-- failures: the subscription's collects that failed in a row — simulations that would revert, collects that reverted
-- on chain, and collects sent only to record missed periods. Each one puts the next look further away
-- (retry-interval doubled each time); give-up-after of them in a row and the keeper gives up on it (given_up_at)
-- until one of its periods is paid (a Charged log) or the contract ends it.
ALTER TABLE keeper_subscription
    ADD COLUMN failures INT NOT NULL DEFAULT 0 CHECK (failures >= 0),
    ADD COLUMN given_up_at TIMESTAMPTZ;
