// Package sim is a WooCommerce simulator for local runs and tests: the
// wc-auth app authorization flow, the REST API v3 subset a reporting client
// reads (orders, refunds, products, customers, settings, webhooks) with
// WordPress's pagination and errors, signed webhook deliveries that disable
// a failing hook as WooCommerce does, a control API and a demo store.
//
// Each store is a WordPress installed in a subdirectory of the simulator:
// http://127.0.0.1:9301/{store}/wp-json/wc/v3/..., /{store}/wc-auth/v1/authorize.
// See README.md for what is simulated and which choices were guesses.
package sim
