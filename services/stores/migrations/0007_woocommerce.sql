-- A category's WooCommerce store (issue 26). The API keys WooCommerce posts
-- to the callback are sealed (AES-GCM) by the service with the same key as
-- Shopify's tokens. The sync columns mirror shopify_connections', so the
-- web shows one kind of progress.
CREATE TABLE woocommerce_connections (
    category_id        uuid PRIMARY KEY,
    -- store_url is the store's home URL as normalised ("https://shop.example/wp").
    store_url          text NOT NULL,
    status             text NOT NULL CHECK (status IN ('CONNECTED', 'DISCONNECTED')),
    name               text NOT NULL DEFAULT '',
    currency           text NOT NULL DEFAULT '',
    timezone           text NOT NULL DEFAULT '',
    key_id             bigint NOT NULL,
    key_permissions    text NOT NULL,
    consumer_key       bytea,
    consumer_secret    bytea,
    -- webhook_secret signs WooCommerce's deliveries to us (sealed).
    webhook_secret     bytea,
    connected_by       text NOT NULL,
    connected_at       timestamptz NOT NULL,
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
    watermark          timestamptz
);
CREATE INDEX woocommerce_connections_sync ON woocommerce_connections (sync_requested_at) WHERE sync_requested_at IS NOT NULL;

-- The one-use state of a WooCommerce connection: it is the user_id
-- WooCommerce echoes to the key callback and the return URL (research §1:
-- "make user_id an unguessable one-time value"), bound to the user,
-- category and store that started it. used_at is set by the callback that
-- delivered keys; connected marks that it stored them, which the browser's
-- return reads.
CREATE TABLE woocommerce_states (
    state       text PRIMARY KEY,
    category_id uuid NOT NULL,
    user_id     text NOT NULL,
    store_url   text NOT NULL,
    created_at  timestamptz NOT NULL,
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz,
    connected   boolean NOT NULL DEFAULT false
);
CREATE INDEX woocommerce_states_expires ON woocommerce_states (expires_at);

-- WooCommerce webhook deliveries seen, by X-WC-Webhook-Delivery-ID per
-- category: a delivery sent twice is applied once.
CREATE TABLE woocommerce_deliveries (
    category_id uuid NOT NULL,
    delivery_id text NOT NULL,
    received_at timestamptz NOT NULL,
    PRIMARY KEY (category_id, delivery_id)
);
CREATE INDEX woocommerce_deliveries_received ON woocommerce_deliveries (received_at);
