// Command studio runs the studio API: photos, jobs, the gallery, previews
// and downloads. The model runs in studioworker.
package main

import (
	"uplift.dev/platform/service"
	studio "uplift.dev/studio/internal/service"
	"uplift.dev/studio/migrations"
)

func main() {
	var cfg studio.Settings
	service.Main("studio", &cfg, &cfg.Base, migrations.FS, studio.Wire(&cfg))
}
