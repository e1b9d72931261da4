-- An outbox row NATS refuses for good (larger than the server takes, or
-- refused by JetStream again and again) moves here, so the rows after it
-- still go out; the relay logs it and counts it (outbox_dead_letters_total).
-- A row put back into outbox (same id) is published again.
CREATE TABLE outbox_dead_letters (
    id          uuid PRIMARY KEY,
    subject     text        NOT NULL,
    payload     bytea       NOT NULL,
    created_at  timestamptz NOT NULL,
    attempts    int         NOT NULL,
    error       text        NOT NULL,
    failed_at   timestamptz NOT NULL DEFAULT now()
);

-- Refusals so far, for the relay's patience with an error it cannot place.
ALTER TABLE outbox
    ADD COLUMN attempts        int NOT NULL DEFAULT 0,
    ADD COLUMN first_failed_at timestamptz;
