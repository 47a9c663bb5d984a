-- The reminder before a subscription's next pull: one per subscription link, for its next due period. Each event that
-- announces the period (notify.next_payment) sets it, so it moves on with every collection; an event about the link
-- without one (cancelled, paused, stopped) removes it.
CREATE TABLE payment_reminder (
    subscription_link_id uuid        PRIMARY KEY,
    merchant_id          uuid        NOT NULL,
    mode                 text        NOT NULL CHECK (mode IN ('test', 'live')),
    due_at               timestamptz NOT NULL,
    -- When the reminder goes out (due_at minus the lead); a claim moves it to the end of its lease.
    remind_at            timestamptz NOT NULL,
    -- The event's envelope as read: the facts of the e-mail (the customer, the plan, the next pull).
    envelope             text        NOT NULL,
    reminded             boolean     NOT NULL DEFAULT false,
    updated_at           timestamptz NOT NULL
);

CREATE INDEX payment_reminder_due ON payment_reminder (remind_at) WHERE NOT reminded;
