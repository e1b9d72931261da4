// Package migrations embeds the review schema's SQL migrations.
package migrations

import "embed"

// FS holds the migrations, applied in name order at start.
//
//go:embed *.sql
var FS embed.FS
