-- The customers' wallet proofs already used: a proof names a nonce, and a wallet's nonce opens one change only. Kept
-- until the proof could no longer be accepted anyway (its signing time plus the window), then deleted.
CREATE TABLE used_wallet_proof (
    wallet_address TEXT        NOT NULL,
    nonce          TEXT        NOT NULL,
    expires_at     TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (wallet_address, nonce)
);

CREATE INDEX used_wallet_proof_expiry ON used_wallet_proof (expires_at);
