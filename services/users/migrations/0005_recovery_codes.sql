-- recovery_codes are the hashes (domain.HashRecoveryCode) of an owner's
-- two-step recovery codes; the codes themselves are shown once and never
-- stored. A used code keeps its row with used_at set.
CREATE TABLE recovery_codes (
    id         bigserial PRIMARY KEY,
    user_id    text        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash  bytea       NOT NULL,
    created_at timestamptz NOT NULL,
    used_at    timestamptz
);
CREATE INDEX recovery_codes_user ON recovery_codes (user_id) WHERE used_at IS NULL;

-- recovery_failures are wrong codes tried for an account, counted over
-- domain.RecoveryFailureWindow to stop guessing whoever does it.
CREATE TABLE recovery_failures (
    user_id text        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    at      timestamptz NOT NULL
);
CREATE INDEX recovery_failures_user ON recovery_failures (user_id, at);
