-- The object an event is about (a payment link or a subscription link), so a merchant can list one object's events
-- (GET /events?object_id=). Taken from the event's data at intake (Event.objectIdOf): the first of data.id,
-- data.payment_link_id, data.subscription_link_id and data.subscriber_id that holds a UUID; NULL when none does.

ALTER TABLE webhook_event ADD COLUMN object_id UUID;

-- The events stored before, by the same rule (the body is the JSON the service wrote, so it always parses).
UPDATE webhook_event e
SET object_id = CAST(found.candidate AS uuid)
FROM (SELECT b.id,
             (SELECT c.value
              FROM unnest(ARRAY [b.data ->> 'id', b.data ->> 'payment_link_id', b.data ->> 'subscription_link_id',
                                 b.data ->> 'subscriber_id'],
                          ARRAY [jsonb_typeof(b.data -> 'id'), jsonb_typeof(b.data -> 'payment_link_id'),
                                 jsonb_typeof(b.data -> 'subscription_link_id'),
                                 jsonb_typeof(b.data -> 'subscriber_id')])
                       WITH ORDINALITY AS c(value, kind, position)
              WHERE c.kind = 'string'
                AND c.value ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
              ORDER BY c.position
              LIMIT 1) AS candidate
      FROM (SELECT id, CAST(body AS jsonb) -> 'data' AS data FROM webhook_event) b) found
WHERE e.id = found.id
  AND found.candidate IS NOT NULL;

-- GET /events: a merchant's events of one mode, newest first; and one object's.
CREATE INDEX webhook_event_merchant ON webhook_event (merchant_id, mode, created_at DESC, id DESC);
CREATE INDEX webhook_event_object ON webhook_event (merchant_id, mode, object_id, created_at DESC, id DESC)
    WHERE object_id IS NOT NULL;
