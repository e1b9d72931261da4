-- What Uplift knows of each store's business, keyed by category (the
-- business). Money is in minor units of the store's currency (bigint), never
-- floating point; days are store-local calendar dates computed when a row is
-- written (the shop's time zone, or the offset an imported file carried).

-- One row per category that has any store data: the currency and time zone
-- its numbers are in.
CREATE TABLE stores (
    category_id uuid PRIMARY KEY,
    currency    text NOT NULL DEFAULT '',
    -- timezone is an IANA name (from Shopify) or a fixed offset like "-05:00"
    -- (from an imported file).
    timezone    text NOT NULL DEFAULT '',
    updated_at  timestamptz NOT NULL DEFAULT now()
);

-- The category's Shopify shop. Tokens are sealed (AES-GCM) by the service.
CREATE TABLE shopify_connections (
    category_id        uuid PRIMARY KEY,
    shop               text NOT NULL,
    status             text NOT NULL CHECK (status IN ('CONNECTED', 'UNINSTALLED', 'DISCONNECTED')),
    name               text NOT NULL DEFAULT '',
    currency           text NOT NULL DEFAULT '',
    timezone           text NOT NULL DEFAULT '',
    scopes             text[] NOT NULL DEFAULT '{}',
    access_token       bytea,
    access_expires_at  timestamptz,
    refresh_token      bytea,
    refresh_expires_at timestamptz,
    connected_by       text NOT NULL,
    connected_at       timestamptz NOT NULL,
    uninstalled_at     timestamptz,
    -- The sync: requested_at set means a sync is wanted; claimed_until is
    -- the lease of the worker running it.
    sync_requested_at  timestamptz,
    sync_claimed_until timestamptz,
    sync_full          boolean NOT NULL DEFAULT true,
    sync_phase         text NOT NULL DEFAULT 'IDLE',
    sync_orders        bigint NOT NULL DEFAULT 0,
    sync_orders_total  bigint NOT NULL DEFAULT 0,
    sync_products      bigint NOT NULL DEFAULT 0,
    sync_customers     bigint NOT NULL DEFAULT 0,
    sync_percent       integer NOT NULL DEFAULT 0,
    sync_error         text NOT NULL DEFAULT '',
    sync_attempts      integer NOT NULL DEFAULT 0,
    last_synced_at     timestamptz,
    -- watermark is the updated_at up to which orders are known; the sweep
    -- asks Shopify for what changed since (minus a margin).
    watermark          timestamptz,
    sessions_available boolean NOT NULL DEFAULT false
);

-- A shop feeds one category at a time.
CREATE UNIQUE INDEX shopify_connections_shop ON shopify_connections (shop) WHERE status = 'CONNECTED';
CREATE INDEX shopify_connections_sync ON shopify_connections (sync_requested_at) WHERE sync_requested_at IS NOT NULL;

-- OAuth state: one use, short-lived, bound to the user and category that
-- started the connection and to the shop they named.
CREATE TABLE oauth_states (
    state       text PRIMARY KEY,
    category_id uuid NOT NULL,
    user_id     text NOT NULL,
    shop        text NOT NULL,
    created_at  timestamptz NOT NULL,
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz
);
CREATE INDEX oauth_states_expires ON oauth_states (expires_at);

-- Orders: test orders are kept (for the import's count) but have no sales
-- rows; a deleted order is removed with its sales.
CREATE TABLE orders (
    category_id    uuid NOT NULL,
    order_id       text NOT NULL,
    source         text NOT NULL,
    name           text NOT NULL,
    created_at     timestamptz NOT NULL,
    local_day      date NOT NULL,
    updated_at     timestamptz,
    cancelled_at   timestamptz,
    test           boolean NOT NULL,
    gift_card_only boolean NOT NULL,
    counted        boolean NOT NULL,
    currency       text NOT NULL,
    customer_key   text NOT NULL DEFAULT '',
    -- order_value is the order-time (gross − discounts) behind AOV.
    order_value    bigint NOT NULL,
    PRIMARY KEY (category_id, order_id)
);
CREATE INDEX orders_day ON orders (category_id, local_day);

-- Sales: the audit trail, with each sale's contribution to the report's
-- columns worked out by the domain when it was written.
CREATE TABLE sales (
    category_id    uuid NOT NULL,
    order_id       text NOT NULL,
    seq            integer NOT NULL,
    happened_at    timestamptz NOT NULL,
    local_day      date NOT NULL,
    action         text NOT NULL,
    line           text NOT NULL,
    product_key    text NOT NULL DEFAULT '',
    product_title  text NOT NULL DEFAULT '',
    quantity       bigint NOT NULL,
    total          bigint NOT NULL,
    discount       bigint NOT NULL,
    tax            bigint NOT NULL,
    gross          bigint NOT NULL,
    discounts      bigint NOT NULL,
    returns        bigint NOT NULL,
    shipping       bigint NOT NULL,
    duties         bigint NOT NULL,
    fees           bigint NOT NULL,
    taxes          bigint NOT NULL,
    tips           bigint NOT NULL,
    gift_cards     bigint NOT NULL,
    PRIMARY KEY (category_id, order_id, seq)
);
CREATE INDEX sales_day ON sales (category_id, local_day);

-- Daily totals, recomputed from orders and sales for every day a write
-- touches, so reading a year is reading 365 rows.
CREATE TABLE daily (
    category_id uuid NOT NULL,
    day         date NOT NULL,
    orders      bigint NOT NULL,
    order_value bigint NOT NULL,
    gross       bigint NOT NULL,
    discounts   bigint NOT NULL,
    returns     bigint NOT NULL,
    shipping    bigint NOT NULL,
    duties      bigint NOT NULL,
    fees        bigint NOT NULL,
    taxes       bigint NOT NULL,
    tips        bigint NOT NULL,
    gift_cards  bigint NOT NULL,
    PRIMARY KEY (category_id, day)
);

-- Sessions from Shopify's analytics (ShopifyQL), never estimated.
CREATE TABLE daily_sessions (
    category_id uuid NOT NULL,
    day         date NOT NULL,
    sessions    bigint NOT NULL,
    completed   bigint NOT NULL,
    PRIMARY KEY (category_id, day)
);

-- Shopify's own figures for a day (ShopifyQL FROM sales), kept beside ours
-- so a difference is visible.
CREATE TABLE shopify_daily (
    category_id uuid NOT NULL,
    day         date NOT NULL,
    orders      bigint NOT NULL,
    total_sales bigint NOT NULL,
    net_sales   bigint NOT NULL,
    PRIMARY KEY (category_id, day)
);

-- Products and customers the sync saw, for counts and titles.
CREATE TABLE products (
    category_id uuid NOT NULL,
    product_id  text NOT NULL,
    title       text NOT NULL,
    PRIMARY KEY (category_id, product_id)
);
CREATE TABLE customers (
    category_id uuid NOT NULL,
    customer_id text NOT NULL,
    orders      bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (category_id, customer_id)
);

-- Imported order exports.
CREATE TABLE imports (
    id          uuid PRIMARY KEY,
    category_id uuid NOT NULL,
    file_sha256 text NOT NULL,
    orders      integer NOT NULL,
    first_day   date,
    last_day    date,
    currency    text NOT NULL,
    imported_by text NOT NULL,
    imported_at timestamptz NOT NULL
);
CREATE INDEX imports_category ON imports (category_id, imported_at DESC);

-- Webhook deliveries, deduplicated by Shopify's event id and processed by
-- the sync worker after the 200 has gone back.
CREATE TABLE webhook_events (
    event_id     text PRIMARY KEY,
    shop         text NOT NULL,
    topic        text NOT NULL,
    payload      jsonb NOT NULL,
    received_at  timestamptz NOT NULL,
    processed_at timestamptz,
    attempts     integer NOT NULL DEFAULT 0,
    last_error   text NOT NULL DEFAULT ''
);
CREATE INDEX webhook_events_pending ON webhook_events (received_at) WHERE processed_at IS NULL;
