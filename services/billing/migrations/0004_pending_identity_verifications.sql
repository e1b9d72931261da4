-- pending_identity_verifications are local test verifications (stripe-mock
-- hosts no verification page), keyed by an unguessable token and usable once.
CREATE TABLE pending_identity_verifications (
    token        text PRIMARY KEY,
    user_id      text        NOT NULL,
    session_id   text        NOT NULL,
    return_url   text        NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    completed_at timestamptz
);
