-- identity_verifications is each user's latest Stripe Identity outcome, from
-- the identity.verification_session.* webhooks. source_time (the event's
-- created time) orders them, so a late or replayed event never overwrites a
-- newer outcome.
CREATE TABLE identity_verifications (
    user_id     text PRIMARY KEY,
    session_id  text        NOT NULL,
    status      text        NOT NULL CHECK (status IN ('verified', 'requires_input', 'canceled')),
    source_time timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now()
);
