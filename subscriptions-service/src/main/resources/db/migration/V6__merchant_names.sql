-- The merchant's display name as the gateway last forwarded it (X-Merchant-Name) with a plan's creation or an
-- invitation: what the customer's subscribe page shows as the one offering the plan. Display text only; nothing is
-- decided by it (the merchant's wallet signature of the terms is what the page verifies).
CREATE TABLE merchant_name (
    merchant_id uuid        PRIMARY KEY,
    name        text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    updated_at  timestamptz NOT NULL
);
