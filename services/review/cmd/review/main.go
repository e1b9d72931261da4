// Command review runs the review service: the website-review engine's
// quick reads (the check on save, the public score, the studio's
// catalogue) over gRPC.
package main

import (
	// The zone database is built in: the calendar reads stores' zones by
	// name on any machine or image.
	_ "time/tzdata"

	"uplift.dev/platform/service"
	review "uplift.dev/review/internal/service"
	"uplift.dev/review/migrations"
)

func main() {
	var cfg review.Settings
	service.Main("review", &cfg, &cfg.Base, migrations.FS, review.Wire(&cfg))
}
