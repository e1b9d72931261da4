// Command users runs the users service: accounts, profiles and admin.
package main

import (
	"uplift.dev/platform/service"
	users "uplift.dev/users/internal/service"
	"uplift.dev/users/migrations"
)

func main() {
	var cfg users.Settings
	service.Main("users", &cfg, &cfg.Base, migrations.FS, users.Wire(&cfg))
}
