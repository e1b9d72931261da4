-- customers links each user to their one Stripe customer, reused on every checkout.
CREATE TABLE customers (
    user_id            text PRIMARY KEY,
    stripe_customer_id text        NOT NULL UNIQUE,
    created_at         timestamptz NOT NULL DEFAULT now()
);

-- billing is each user's plan; source_time orders changes so an older Stripe
-- event never overwrites a newer state.
CREATE TABLE billing (
    user_id         text PRIMARY KEY,
    tier            text        NOT NULL,
    is_manually_set boolean     NOT NULL DEFAULT false,
    source_time     timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL DEFAULT now()
);

-- stripe_events makes webhooks idempotent: an event id is recorded in the
-- transaction that applies it.
CREATE TABLE stripe_events (
    event_id    text PRIMARY KEY,
    received_at timestamptz NOT NULL DEFAULT now()
);

-- pending_checkouts are local test checkouts (stripe-mock hosts no page),
-- keyed by an unguessable token and usable once.
CREATE TABLE pending_checkouts (
    token        text PRIMARY KEY,
    user_id      text        NOT NULL,
    category_id  text        NOT NULL,
    customer_id  text        NOT NULL,
    tier         text        NOT NULL,
    price_id     text        NOT NULL,
    referral_id  text        NOT NULL,
    amount       integer     NOT NULL,
    success_url  text        NOT NULL,
    cancel_url   text        NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    completed_at timestamptz
);
