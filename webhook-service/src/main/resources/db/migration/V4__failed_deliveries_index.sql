-- Failed deliveries by endpoint and age: what the recover route pages through, and what the failed-deliveries gauge
-- counts, without reading the succeeded deliveries kept as history (nearly every row of the table).
CREATE INDEX webhook_delivery_failed ON webhook_delivery (endpoint_id, created_at) WHERE status = 'failed';
