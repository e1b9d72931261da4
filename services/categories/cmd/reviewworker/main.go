// Command reviewworker runs the website reviews store owners see on Home,
// with their speed measured in Chromium, apart from the categories API so
// a browser's weight and crashes never reach the API.
package main

import (
	// The zone database is built in, as in the categories service.
	_ "time/tzdata"

	"uplift.dev/categories/internal/worker"
)

func main() { worker.Main() }
