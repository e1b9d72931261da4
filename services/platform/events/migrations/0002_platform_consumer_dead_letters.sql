-- An event a consumer failed to handle MaxDeliveries times moves here and is
-- not delivered to that consumer again, so a poison message stops retrying
-- forever; the consumer logs it and counts it (event_dead_letters_total).
-- `headers` keeps the sender's signature, so the event can be sent again
-- as it was (README.md, "Dead letters").
CREATE TABLE consumer_dead_letters (
    consumer    text        NOT NULL,
    message_id  text        NOT NULL,
    subject     text        NOT NULL,
    headers     jsonb       NOT NULL,
    payload     bytea       NOT NULL,
    deliveries  int         NOT NULL,
    error       text        NOT NULL,
    failed_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, message_id)
);

-- For pruning by age (events.Prune).
CREATE INDEX outbox_published_at ON outbox (published_at) WHERE published_at IS NOT NULL;
CREATE INDEX processed_messages_processed_at ON processed_messages (processed_at);
