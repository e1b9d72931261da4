package eventport_test

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/pgtest"
	"uplift.dev/platform/postgres"
	storespg "uplift.dev/stores/internal/adapters/postgres"
	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/ports/eventport"
	"uplift.dev/stores/migrations"
)

// A deleted user's store data goes in the transaction that records the
// UserDeleted message: if that transaction does not commit (the message
// is then delivered again), nothing was deleted; when it commits, the
// user's category and the connections they started are gone, another
// user's stay.
func TestUserDeletedDeletesInTheConsumersTransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.Pool(t, "stores")
	if err := postgres.Migrate(ctx, pool, events.Migrations(), migrations.FS); err != nil {
		t.Fatal(err)
	}
	mine, theirs := uuid.NewString(), uuid.NewString()
	for _, c := range []struct{ cat, user string }{{mine, "gone"}, {theirs, "stays"}} {
		if _, err := pool.Exec(ctx, `INSERT INTO stores (category_id, currency) VALUES ($1, 'USD')`, c.cat); err != nil {
			t.Fatal(err)
		}
		if _, err := pool.Exec(ctx, `INSERT INTO oauth_states (state, category_id, user_id, shop, created_at, expires_at)
			VALUES ($1, $2, $3, 'a.myshopify.com', now(), now() + interval '1 hour')`, uuid.NewString(), uuid.NewString(), c.user); err != nil {
			t.Fatal(err)
		}
	}
	a := app.New(storespg.Repo{Pool: pool}, nil, nil, nil, nil, slog.New(slog.NewTextHandler(io.Discard, nil)), app.Options{})
	c := eventport.Consumers{Bus: events.Bus{Pool: pool, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}, App: a,
		InTx: func(tx pgx.Tx) app.EventStore { return storespg.TxRepo{Tx: tx} }}
	handle := func(commit bool) {
		t.Helper()
		tx, err := pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.HandleUserDeleted(ctx, tx, &eventsv1.UserDeleted{UserId: "gone", CategoryId: mine}, events.Meta{}); err != nil {
			t.Fatal(err)
		}
		if commit {
			err = tx.Commit(ctx)
		} else {
			err = tx.Rollback(ctx)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	count := func(q string, args ...any) int {
		t.Helper()
		var n int
		if err := pool.QueryRow(ctx, q, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	handle(false)
	if n := count(`SELECT count(*) FROM stores`) + count(`SELECT count(*) FROM oauth_states`); n != 4 {
		t.Fatalf("a rolled-back delivery deleted rows: %d of 4 left", n)
	}
	handle(true)
	if count(`SELECT count(*) FROM stores WHERE category_id = $1`, mine) != 0 || count(`SELECT count(*) FROM oauth_states WHERE user_id = 'gone'`) != 0 {
		t.Fatal("the deleted user's data is still there")
	}
	if count(`SELECT count(*) FROM stores WHERE category_id = $1`, theirs) != 1 || count(`SELECT count(*) FROM oauth_states WHERE user_id = 'stays'`) != 1 {
		t.Fatal("another user's data went too")
	}
	if err := c.HandleUserDeleted(ctx, nil, &eventsv1.UserDeleted{}, events.Meta{}); err != nil {
		t.Fatalf("a UserDeleted without a user is dropped, not retried: %v", err)
	}
}
