-- One e-mail to one recipient, made from one event by one template. The unique key makes a redelivered event
-- (at-least-once from Kafka, or a second instance reading it) change nothing.
CREATE TABLE notification (
    id              uuid        PRIMARY KEY,
    event_id        uuid        NOT NULL,
    event_type      text        NOT NULL,
    template        text        NOT NULL,
    merchant_id     uuid        NOT NULL,
    mode            text        NOT NULL CHECK (mode IN ('test', 'live')),
    recipient       text        NOT NULL,
    sender_name     text        NOT NULL,
    reply_to        text,
    subject         text        NOT NULL,
    html_body       text        NOT NULL,
    text_body       text        NOT NULL,
    -- pending: to be sent at next_attempt_at (also while claimed: the claim moves next_attempt_at to its lease's end);
    -- sent: the SMTP server accepted it; failed: refused for good (a 5xx answer, an address that is no address);
    -- given_up: every attempt of the retry schedule failed.
    status          text        NOT NULL CHECK (status IN ('pending', 'sent', 'failed', 'given_up')),
    attempts        integer     NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    last_error      text,
    sent_at         timestamptz,
    created_at      timestamptz NOT NULL,
    CONSTRAINT notification_once UNIQUE (event_id, template, recipient)
);

-- The sender's scan: only pending rows, oldest due first.
CREATE INDEX notification_due ON notification (next_attempt_at) WHERE status = 'pending';

-- A merchant's e-mail log, newest first.
CREATE INDEX notification_by_merchant ON notification (merchant_id, mode, created_at DESC);

-- What e-mails say about the merchant: the display name, as the latest event that carried one named it (producers
-- that know it put it in the event's notify member; a receipt from a service that does not is named from here).
CREATE TABLE merchant_profile (
    merchant_id  uuid        PRIMARY KEY,
    display_name text        NOT NULL,
    updated_at   timestamptz NOT NULL
);
