// Command billing runs the billing service: tiers, Stripe checkout and
// portal, Stripe webhooks and manual billing.
package main

import (
	billing "uplift.dev/billing/internal/service"
	"uplift.dev/billing/migrations"
	"uplift.dev/platform/service"
)

func main() {
	var cfg billing.Settings
	service.Main("billing", &cfg, &cfg.Base, migrations.FS, billing.Wire(&cfg))
}
