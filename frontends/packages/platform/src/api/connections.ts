/**
 * Not in the package's index but its own entry (`@uplift/platform/connections`):
 * only the Connections remote connects, syncs and disconnects stores, and the
 * index is in every first load (a shared singleton). These calls hold no
 * state; the one they use, the HTTP client, they take from the singleton by
 * the package's name, so a copy in the remote still sends the signed-in
 * owner's token.
 */
export * from './start-shopify-connect';
export * from './sync-shopify';
export * from './disconnect-shopify';
export * from './start-woocommerce-connect';
export * from './sync-woocommerce';
export * from './disconnect-woocommerce';
export * from './ga4-connection';
export * from './import-orders';
