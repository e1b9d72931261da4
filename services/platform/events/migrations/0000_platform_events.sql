-- The outbox holds events written in the same transaction as the change they
-- report; the relay publishes them to JetStream and stamps published_at.
CREATE TABLE outbox (
    id           uuid PRIMARY KEY,
    subject      text        NOT NULL,
    payload      bytea       NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    published_at timestamptz
);
CREATE INDEX outbox_unpublished ON outbox (created_at) WHERE published_at IS NULL;

-- processed_messages makes consumers safe to run twice: a message id is
-- recorded in the same transaction as the handler's changes.
CREATE TABLE processed_messages (
    consumer     text        NOT NULL,
    message_id   text        NOT NULL,
    processed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, message_id)
);
