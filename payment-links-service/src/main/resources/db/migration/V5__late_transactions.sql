-- A transaction that arrived after its link stopped taking payments (expired, completed or cancelled) is recorded
-- all the same, never lost: it moves nothing on the link, and its events say late: true.
ALTER TABLE link_transaction ADD COLUMN late BOOLEAN NOT NULL DEFAULT FALSE;
