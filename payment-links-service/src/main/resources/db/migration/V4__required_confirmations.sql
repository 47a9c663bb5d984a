-- How many confirmations the reporting chain watcher waits for before it reports a transaction confirmed, so the
-- checkout can show "n of N confirmations". NULL: the watcher did not say (the checkout then shows "n confirmations").
ALTER TABLE link_transaction
    ADD COLUMN required_confirmations INT CHECK (required_confirmations >= 1);
