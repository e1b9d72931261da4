-- recipients is what the digest service knows of each user from the users
-- service's events (UserCreated, UserEmailChanged, UserDeleted): where their
-- mail goes and which category is theirs. email_time is the occur_time of
-- the event that set email: a late, older event never overwrites a newer
-- address. A deleted user keeps only a tombstone (no address), so an event
-- that arrives after the deletion cannot bring them back.
CREATE TABLE recipients (
    user_id     text PRIMARY KEY,
    email       text        NOT NULL DEFAULT '',
    email_time  timestamptz NOT NULL DEFAULT '-infinity',
    category_id text        NOT NULL DEFAULT '',
    deleted     boolean     NOT NULL DEFAULT false,
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX recipients_category ON recipients (category_id) WHERE category_id <> '';

-- recipient_stores is the newest CategoryUpdated per category (by
-- occur_time): the store's name, website and email switches, for the
-- recurring emails.
CREATE TABLE recipient_stores (
    category_id             text PRIMARY KEY,
    owner_user_id           text        NOT NULL DEFAULT '',
    name                    text        NOT NULL DEFAULT '',
    site_url                text        NOT NULL DEFAULT '',
    disable_weekly_email    boolean     NOT NULL DEFAULT false,
    disable_business_report boolean     NOT NULL DEFAULT false,
    occur_time              timestamptz NOT NULL,
    updated_at              timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX recipient_stores_owner ON recipient_stores (owner_user_id);

-- suppressions says, per user and kind of non-transactional email, whether
-- it is turned off: by the one-click unsubscribe link, the unsubscribe page,
-- an unsubscribe from everything, or the business profile's switches. The
-- newest change (changed_at, the time it was made) wins. Transactional mail
-- is never looked up here.
CREATE TABLE suppressions (
    user_id    text        NOT NULL,
    kind       text        NOT NULL CHECK (kind IN ('ai_digest', 'weekly_review', 'daily_report')),
    suppressed boolean     NOT NULL,
    changed_at timestamptz NOT NULL,
    source     text        NOT NULL DEFAULT '',
    PRIMARY KEY (user_id, kind)
);

-- A queued email whose kind was turned off before it went out is kept as
-- 'suppressed' in the send log.
ALTER TABLE emails DROP CONSTRAINT emails_status_check;
ALTER TABLE emails ADD CONSTRAINT emails_status_check
    CHECK (status IN ('pending', 'sent', 'failed', 'suppressed'));

-- send_log is the operator's view of the mail: who, what, when, status.
-- See the README for queries.
CREATE VIEW send_log AS
SELECT id, created_at AS queued_at, sent_at, kind, user_id, recipient, status, attempts,
       last_error, next_attempt_at, idempotency_key
FROM emails;
