-- A WooCommerce store's size as Connections shows it (issue 26): how many
-- products and customers the store has, by X-WP-Total, kept apart from the
-- running sync's progress (sync_products, sync_customers) so the card's
-- "N orders · N products · N customers" stays through a sync. Its orders
-- are counted from the orders table.
ALTER TABLE woocommerce_connections
    ADD COLUMN store_products  bigint NOT NULL DEFAULT 0,
    ADD COLUMN store_customers bigint NOT NULL DEFAULT 0;
