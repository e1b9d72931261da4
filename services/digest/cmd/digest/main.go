// Command digest runs the digest service: it owns Uplift's outgoing mail.
package main

import (
	digest "uplift.dev/digest/internal/service"
	"uplift.dev/digest/migrations"
	"uplift.dev/platform/service"
)

func main() {
	var cfg digest.Settings
	service.Main("digest", &cfg, &cfg.Base, migrations.FS, digest.Wire(&cfg))
}
