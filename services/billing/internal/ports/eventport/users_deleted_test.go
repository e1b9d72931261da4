package eventport_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"google.golang.org/protobuf/proto"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	billingpg "uplift.dev/billing/internal/adapters/postgres"
	"uplift.dev/billing/internal/app"
	"uplift.dev/billing/internal/ports/eventport"
	"uplift.dev/billing/migrations"
	"uplift.dev/platform/events"
	"uplift.dev/platform/natstest"
	"uplift.dev/platform/pgtest"
	"uplift.dev/platform/postgres"
)

// TestUserDeletedRemovesOnlyThatUsersRows runs the consumer against real
// Postgres and NATS: the deleted user's rows go, another user's stay, and a
// redelivered event changes nothing.
func TestUserDeletedRemovesOnlyThatUsersRows(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pool := pgtest.Pool(t, "billing")
	if err := postgres.Migrate(ctx, pool, events.Migrations(), migrations.FS); err != nil {
		t.Fatal(err)
	}
	nc, js, err := events.Connect(ctx, natstest.StartWithStream(t), "test")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	for _, u := range []string{"gone", "kept"} {
		if _, err := pool.Exec(ctx, `INSERT INTO customers (user_id, stripe_customer_id) VALUES ($1, 'cus_'||$1)`, u); err != nil {
			t.Fatal(err)
		}
		if _, err := pool.Exec(ctx, `INSERT INTO billing (user_id, tier, source_time) VALUES ($1, 'pro', now())`, u); err != nil {
			t.Fatal(err)
		}
		if _, err := pool.Exec(ctx, `INSERT INTO pending_checkouts (token, user_id, category_id, customer_id, tier,
			price_id, referral_id, amount, success_url, cancel_url)
			VALUES ('tok-'||$1, $1, 'c', 'cus_'||$1, 'pro', 'p', 'r', 100, 's', 'c')`, u); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan error, 1)
	go func() {
		done <- eventport.Consumers{Bus: events.Bus{JS: js, Pool: pool, Log: slog.New(slog.NewTextHandler(io.Discard, nil))},
			App: &app.App{}, InTx: func(tx pgx.Tx) app.EventStore { return billingpg.TxRepo{Tx: tx} }}.Workers()[0](ctx)
	}()
	data, _ := proto.Marshal(&eventsv1.UserDeleted{UserId: "gone", CategoryId: "cat-gone"})
	for range 2 { // the second is a redelivery with a new id: still harmless
		if _, err := js.Publish(ctx, events.SubjectUserDeleted, data); err != nil {
			t.Fatal(err)
		}
	}
	count := func(user string) int {
		var n int
		if err := pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM customers WHERE user_id = $1)
			+ (SELECT count(*) FROM billing WHERE user_id = $1)
			+ (SELECT count(*) FROM pending_checkouts WHERE user_id = $1)`, user).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	deadline := time.Now().Add(10 * time.Second)
	for count("gone") != 0 {
		if time.Now().After(deadline) {
			t.Fatal("deleted user's billing rows are still there")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if n := count("kept"); n != 3 {
		t.Fatalf("another user's rows touched: %d of 3 left", n)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
