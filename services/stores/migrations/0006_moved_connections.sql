-- A shop whose owner approves Uplift on Shopify for another account moves
-- to that account (the consent proves the shop is theirs); the account it
-- left keeps a MOVED row, so its Connections page can say what happened,
-- without the tokens or the shop's data.
ALTER TABLE shopify_connections DROP CONSTRAINT shopify_connections_status_check;
ALTER TABLE shopify_connections ADD CONSTRAINT shopify_connections_status_check
    CHECK (status IN ('CONNECTED', 'UNINSTALLED', 'DISCONNECTED', 'MOVED'));
