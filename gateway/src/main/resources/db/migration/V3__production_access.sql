-- Merchants' requests for production access (live keys), decided by the operator. A merchant holds at most one open
-- (pending) request; once one is approved the merchant may create live keys itself.

CREATE TABLE production_access_request (
    id           uuid        PRIMARY KEY,
    merchant_id  uuid        NOT NULL REFERENCES merchant (id),
    company      text        CHECK (company IS NULL OR length(company) BETWEEN 1 AND 200),
    website      text        CHECK (website IS NULL OR length(website) BETWEEN 1 AND 500),
    use_case     text        NOT NULL CHECK (length(use_case) BETWEEN 1 AND 2000),
    status       varchar(8)  NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
    -- The operator's reason for a rejection, shown to the merchant.
    reason       text        CHECK (reason IS NULL OR length(reason) BETWEEN 1 AND 1000),
    created_at   timestamptz NOT NULL,
    decided_at   timestamptz,
    CHECK ((status = 'pending') = (decided_at IS NULL))
);

-- One open request per merchant: a second one, even sent concurrently, finds the first.
CREATE UNIQUE INDEX production_access_open_idx ON production_access_request (merchant_id) WHERE status = 'pending';
CREATE INDEX production_access_merchant_idx ON production_access_request (merchant_id, created_at);
CREATE INDEX production_access_status_idx ON production_access_request (status, created_at);
