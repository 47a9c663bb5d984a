-- The statements of one payment-link create, as payment-links-service runs them for a merchant without a receiving
-- key, on one connection and without a transaction around them: take the next index of the receiving key (no row:
-- there is none), then insert the link and its payment.created outbox row in one statement (the same columns; the
-- payload is a text of the size the service writes, ~690 bytes, since pgbench would read the colons of a JSON text as
-- variables). Run by bench/run-pgbench-create against a scratch copy of the schema.
\set n random(1, 2000000000)
UPDATE receiving_key SET next_index = next_index + 1, updated_at = now()
WHERE merchant_id = '31b97e4b-4501-4089-a40a-ff5fb74d676a' AND mode = 'test' AND is_current
    AND next_index < 2147483648 RETURNING id, next_index - 1;
WITH changed AS (
    INSERT INTO payment_link (id, merchant_id, mode, payment_name, amount, currency, network, payment_status,
        expires_at, max_uses, current_uses, is_active, customer_id, order_id, auto_fill, created_at, updated_at,
        chain_id, token_contract, decimals, amount_base_units)
    VALUES (gen_random_uuid(), '31b97e4b-4501-4089-a40a-ff5fb74d676a', 'test', 'Bench', 10, 'USDC', 'Local dev chain',
        'pending', now() + interval '1 day', 1, 0, true, 'CUST-' || :n, 'pgbench-' || :client_id || '-' || :n, true,
        now(), now(), 31337, '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512', 6, 10000000)
    RETURNING id
)
INSERT INTO outbox_event (event_id, topic, record_key, event_type, aggregate_type, aggregate_id, payload, created_at)
SELECT * FROM (VALUES (gen_random_uuid(), 'payment-links.events', '31b97e4b-4501-4089-a40a-ff5fb74d676a',
    'payment.created', 'payment_link', 'pgbench-' || :n, repeat('x', 690), now())) AS event
WHERE EXISTS (SELECT FROM changed);
