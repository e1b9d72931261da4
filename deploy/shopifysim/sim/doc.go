// Package sim is a Shopify simulator for local runs and tests: OAuth, the
// GraphQL Admin API subset Uplift's sync uses, bulk operations, ShopifyQL,
// cost-based throttling, signed webhook delivery and a control API.
package sim
