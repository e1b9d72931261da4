package program_test

import (
	"context"
	"testing"
	"testing/fstest"

	"uplift.dev/platform/events"
	"uplift.dev/platform/pgtest"
	"uplift.dev/platform/postgres"
	"uplift.dev/platform/program"
)

// `NAME migrate` leaves the schema with every migration the binary has,
// the event tables' included, so a copy started with MIGRATED_BY_STEP=true
// finds nothing pending; run again, it changes nothing.
func TestMigrateSchemaLeavesNothingPending(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.URL(t)
	own := fstest.MapFS{"0001_things.sql": {Data: []byte(`CREATE TABLE things (n int)`)}}
	for range 2 {
		if err := program.MigrateSchema(ctx, url, "shop", own); err != nil {
			t.Fatal(err)
		}
	}
	pool, err := postgres.Open(ctx, url, "shop")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	pending, err := postgres.Pending(ctx, pool, events.Migrations(), own)
	if err != nil || len(pending) != 0 {
		t.Fatalf("after migrate: pending %v (%v)", pending, err)
	}
}
