-- The keeper's scope (POST /internal/keeper/scope): the chain watcher asks, by on-chain subscription id, which
-- subscriptions this service answers for. Looked up by the id alone, across merchant accounts.
CREATE INDEX subscription_link_chain_subscription ON subscription_link (chain_subscription_id)
    WHERE chain_subscription_id IS NOT NULL;
