-- The transaction of one payment-link create, as payment-links-service runs it for a merchant without a receiving
-- key: look for the receiving key, insert the link, insert its payment.created outbox row (the same columns; the
-- payload is a text of the size the service writes, ~690 bytes, since pgbench would read the colons of a JSON text as
-- variables). Run by bench/run-pgbench-create against a scratch copy of the schema.
\set n random(1, 2000000000)
BEGIN;
SELECT id FROM receiving_key WHERE merchant_id = '31b97e4b-4501-4089-a40a-ff5fb74d676a' AND mode = 'test' AND is_current;
INSERT INTO payment_link (id, merchant_id, mode, payment_name, amount, currency, network, payment_status, expires_at,
    max_uses, current_uses, is_active, customer_id, order_id, auto_fill, created_at, updated_at, chain_id,
    token_contract, decimals, amount_base_units)
VALUES (gen_random_uuid(), '31b97e4b-4501-4089-a40a-ff5fb74d676a', 'test', 'Bench', 10, 'USDC', 'Local dev chain',
    'pending', now() + interval '1 day', 1, 0, true, 'CUST-' || :n, 'pgbench-' || :client_id || '-' || :n, true,
    now(), now(), 31337, '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512', 6, 10000000);
INSERT INTO outbox_event (event_id, topic, record_key, event_type, aggregate_type, aggregate_id, payload, created_at)
VALUES (gen_random_uuid(), 'payment-links.events', '31b97e4b-4501-4089-a40a-ff5fb74d676a', 'payment.created',
    'payment_link', 'pgbench-' || :n,
    repeat('x', 690),
    now());
END;
