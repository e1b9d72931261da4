// Command categories runs the categories service: business profiles,
// website reviews, reports, insights and campaign ideas.
package main

import (
	// The zone database is built in, so time zone names are checked the
	// same way on any machine or image.
	_ "time/tzdata"

	categories "uplift.dev/categories/internal/service"
	"uplift.dev/categories/migrations"
	"uplift.dev/platform/service"
)

func main() {
	var cfg categories.Settings
	service.Main("categories", &cfg, &cfg.Base, migrations.FS, categories.Wire(&cfg))
}
