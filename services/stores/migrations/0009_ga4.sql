-- A category's Google Analytics 4 property (issue 26 item 3): sessions and
-- purchases for conversion, for any store. The refresh token is sealed
-- (AES-GCM, the same key as Shopify's tokens); access tokens are never
-- stored: each refresh round asks Google for a fresh one.
CREATE TABLE ga4_connections (
    category_id        uuid PRIMARY KEY,
    -- status: PICK_PROPERTY (consented, no property chosen yet), CONNECTED,
    -- REAUTHORIZE (Google refused the refresh token), DISCONNECTED.
    status             text NOT NULL CHECK (status IN ('PICK_PROPERTY', 'CONNECTED', 'REAUTHORIZE', 'DISCONNECTED')),
    refresh_token      bytea,
    scopes             text NOT NULL DEFAULT '',
    property_id        text NOT NULL DEFAULT '',
    property_name      text NOT NULL DEFAULT '',
    property_timezone  text NOT NULL DEFAULT '',
    property_currency  text NOT NULL DEFAULT '',
    -- sessions_source: 'ga4' (conversion from GA4) or 'shopify' (a Shopify
    -- store keeping Shopify's sessions).
    sessions_source    text NOT NULL DEFAULT 'ga4' CHECK (sessions_source IN ('ga4', 'shopify')),
    connected_by       text NOT NULL,
    connected_at       timestamptz NOT NULL,
    refresh_due_at     timestamptz,
    refresh_claimed_until timestamptz,
    -- backfilled: the first, long read has finished; later rounds re-read
    -- the last days only (GA4 keeps processing for 24-48 h).
    backfilled         boolean NOT NULL DEFAULT false,
    attempts           integer NOT NULL DEFAULT 0,
    last_refreshed_at  timestamptz,
    sampled            boolean NOT NULL DEFAULT false,
    thresholded        boolean NOT NULL DEFAULT false,
    -- quota_until: GA4 answered RESOURCE_EXHAUSTED; no report before then.
    quota_until        timestamptz,
    error              text NOT NULL DEFAULT ''
);
CREATE INDEX ga4_connections_due ON ga4_connections (refresh_due_at) WHERE refresh_due_at IS NOT NULL;

-- The one-use OAuth state of a GA4 connection, bound to the user and the
-- category; the PKCE code verifier is kept with it, sealed.
CREATE TABLE ga4_states (
    state       text PRIMARY KEY,
    category_id uuid NOT NULL,
    user_id     text NOT NULL,
    verifier    bytea NOT NULL,
    created_at  timestamptz NOT NULL,
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz
);
CREATE INDEX ga4_states_expires ON ga4_states (expires_at);

-- GA4's days (its `date` dimension, in the property's time zone) with
-- sessions and ecommercePurchases. A day GA4 withheld (thresholding) has
-- no row: it is never taken for zero.
CREATE TABLE ga4_days (
    category_id uuid NOT NULL,
    day         date NOT NULL,
    property_id text NOT NULL,
    sessions    bigint NOT NULL,
    purchases   bigint NOT NULL,
    PRIMARY KEY (category_id, day)
);
