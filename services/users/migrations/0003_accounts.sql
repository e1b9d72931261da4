-- unsubscribed_at is when the user opted out of email (null: subscribed).
ALTER TABLE users ADD COLUMN unsubscribed_at timestamptz;

-- The user searches match a prefix of the email or the name, case-insensitively,
-- and page in (lower(email), id) order.
CREATE INDEX users_email_prefix ON users (lower(email) text_pattern_ops, id);
CREATE INDEX users_name_prefix ON users (lower(display_name) text_pattern_ops);
-- Finds the owner of a category for the audit log.
CREATE INDEX users_original_category ON users (original_category_id);

-- audit_log is what users did while acting on behalf of another user (and the
-- switches in and out): who, as whom, in which category, what, when. Rows are
-- kept when users are deleted: the record is the actor's, not the owner's data.
CREATE TABLE audit_log (
    id              bigserial PRIMARY KEY,
    actor_id        text        NOT NULL,
    on_behalf_of_id text,
    category_id     text        NOT NULL,
    action          text        NOT NULL,
    detail          text        NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL
);
CREATE INDEX audit_log_actor ON audit_log (actor_id, created_at);
CREATE INDEX audit_log_on_behalf_of ON audit_log (on_behalf_of_id, created_at);

-- password_reset_requests rate-limits reset emails: one per email per interval.
CREATE TABLE password_reset_requests (
    email             text PRIMARY KEY,
    last_requested_at timestamptz NOT NULL
);
