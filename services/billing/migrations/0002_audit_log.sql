-- audit_log records what admins did to billing by hand (setBilling): who,
-- for which user, what, when. Written in the transaction of the change.
-- Rows are kept when the user is deleted: the record is the admin's.
CREATE TABLE audit_log (
    id         bigserial PRIMARY KEY,
    actor_id   text        NOT NULL,
    user_id    text        NOT NULL,
    action     text        NOT NULL,
    detail     text        NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL
);
CREATE INDEX audit_log_actor ON audit_log (actor_id, created_at);
CREATE INDEX audit_log_user ON audit_log (user_id, created_at);
