-- A transaction hash is unique per merchant and mode, not across merchants: otherwise one merchant could record
-- another merchant's real transaction first and block it for its owner.
ALTER TABLE subscription_payment DROP CONSTRAINT subscription_payment_network_id_tx_hash_key;
ALTER TABLE subscription_payment
    ADD CONSTRAINT subscription_payment_merchant_tx UNIQUE (merchant_id, mode, network_id, tx_hash);
