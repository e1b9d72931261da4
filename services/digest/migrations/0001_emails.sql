-- emails is the digest service's outbox of mail to send: one row per email,
-- written in the transaction of the event (or request) that asked for it and
-- sent by the sender worker. The idempotency key makes a repeated request a
-- no-op; status/attempts/next_attempt_at/last_error drive retries.
CREATE TABLE emails (
    id              bigserial   PRIMARY KEY,
    idempotency_key text        NOT NULL UNIQUE,
    kind            text        NOT NULL,
    user_id         text        NOT NULL DEFAULT '',
    recipient       text        NOT NULL,
    -- params feeds the template; a password-reset link is removed once sent.
    params          jsonb       NOT NULL DEFAULT '{}',
    status          text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts        integer     NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error      text        NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL DEFAULT now(),
    sent_at         timestamptz
);
CREATE INDEX emails_due ON emails (next_attempt_at) WHERE status = 'pending';
CREATE INDEX emails_user ON emails (user_id);
