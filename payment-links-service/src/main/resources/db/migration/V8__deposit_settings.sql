-- What a merchant wants to hear of deposits, per mode. No row: every wallet.deposit is sent, as before the setting
-- existed. A deposit below the minimum is still recorded on its link; only its webhook event is not written.
CREATE TABLE deposit_settings (
    merchant_id         UUID           NOT NULL,
    mode                TEXT           NOT NULL CHECK (mode IN ('test', 'live')),
    webhook_minimum_usd NUMERIC(38, 18) NOT NULL CHECK (webhook_minimum_usd >= 0),
    updated_at          TIMESTAMPTZ    NOT NULL,
    PRIMARY KEY (merchant_id, mode)
);
