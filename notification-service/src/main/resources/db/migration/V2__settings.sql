-- What a merchant chose for its e-mails, per mode (a test key changes only the sandbox's): the name shown as the
-- sender (null: the name the events carry), the support address replies go to (null: no Reply-To), and the e-mails
-- switched off (by template name; every other one is sent).
CREATE TABLE notification_settings (
    merchant_id     uuid        NOT NULL,
    mode            text        NOT NULL CHECK (mode IN ('test', 'live')),
    display_name    text,
    support_email   text,
    disabled_emails text[]      NOT NULL DEFAULT '{}',
    updated_at      timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, mode)
);
