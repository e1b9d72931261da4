package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"uplift.dev/platform/events"
	"uplift.dev/platform/pgtest"
	platformpg "uplift.dev/platform/postgres"
	"uplift.dev/stores/internal/domain"
	"uplift.dev/stores/migrations"
)

// TestInsertNewOrdersGivesWayToAStoredOne: an order that a shop's sync
// stored after the batch looked makes the copy of new orders give up
// without spoiling the transaction, and the upsert that follows stores the
// batch over it, as it would have had the batch seen that order.
func TestInsertNewOrdersGivesWayToAStoredOne(t *testing.T) {
	t.Parallel()
	pool := pgtest.Pool(t, "stores")
	ctx := context.Background()
	if err := platformpg.Migrate(ctx, pool, events.Migrations(), migrations.FS); err != nil {
		t.Fatal(err)
	}
	cat := "0b7e9c1e-3f0a-4c55-9a7d-6f1d2c3b4a59"
	at := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	row := func(id, name string) []any {
		return []any{cat, id, "import", name, at, pgDate(domain.DateOf(at)), nil, nil, false, false, true, "USD", ""}
	}
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if n, err := insertNewOrders(ctx, tx, [][]any{row("import:#1", "#1")}); err != nil || n != 1 {
			t.Fatalf("first copy: %d, %v", n, err)
		}
		batch := [][]any{row("import:#2", "#2"), row("import:#1", "#1 again")}
		if n, err := insertNewOrders(ctx, tx, batch); err != nil || n != -1 {
			t.Fatalf("copy over a stored order = %d, %v; want -1 and no error", n, err)
		}
		n, err := upsertOrders(ctx, tx, batch)
		if err != nil || n != 2 {
			t.Fatalf("upsert after the copy gave way = %d, %v", n, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	rows, _ := pool.Query(ctx, `SELECT name FROM orders WHERE category_id = $1 ORDER BY order_id`, cat)
	names, err = pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(names) != 2 || names[0] != "#1 again" || names[1] != "#2" {
		t.Errorf("stored %q, %v; want [#1 again #2]", names, err)
	}
}
