// Command reviewworker runs the website reviews store owners see on Home,
// with their speed measured in Chromium, apart from the review service's
// API so a browser's weight and crashes never reach it.
package main

import (
	// The zone database is built in: plans are dated in stores' zones.
	_ "time/tzdata"

	"uplift.dev/review/internal/worker"
)

func main() { worker.Main() }
