// Command stores runs the stores service: the Shopify connection and sync,
// order-export imports, and the store's daily numbers.
package main

import (
	"uplift.dev/platform/service"
	stores "uplift.dev/stores/internal/service"
	"uplift.dev/stores/migrations"
)

func main() {
	var cfg stores.Settings
	service.Main("stores", &cfg, &cfg.Base, migrations.FS, stores.Wire(&cfg))
}
