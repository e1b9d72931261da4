package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"uplift.dev/stores/internal/adapters/postgres"
	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
)

// connectWoo connects a WooCommerce store for a new category at t0.
func connectWoo(t *testing.T, r postgres.Repo, t0 time.Time) string {
	t.Helper()
	ctx := context.Background()
	cat := uuid.NewString()
	if err := r.CreateWooState(ctx, app.WooState{State: "w-" + cat, CategoryID: cat, UserID: "u", StoreURL: "https://x.example",
		CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := r.ConnectWooCommerce(ctx, app.WooConnection{CategoryID: cat, StoreURL: "https://x.example", KeyID: 1,
		KeyPermissions: "read_write", ConsumerKey: []byte("k"), ConsumerSecret: []byte("s"), ConnectedBy: "u",
		ConnectedAt: t0, Timezone: "Europe/London", Currency: "GBP"}, "w-"+cat); err != nil {
		t.Fatal(err)
	}
	return cat
}

// TestSyncNowDuringAWooSyncIsKept: "Sync now" pressed while a sync runs
// (it may ask for what that sync already read past) makes another sync
// due at once when the running one ends, finished or failed; without a
// press the next is the catch-up at the time given. A fixed clock, on
// both sides of the UK's clock change (29 March 2026).
func TestSyncNowDuringAWooSyncIsKept(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	ctx := context.Background()
	for _, t0 := range []time.Time{time.Date(2026, 3, 29, 0, 30, 0, 0, time.UTC), time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)} {
		cat := connectWoo(t, r, t0)
		lease := 10 * time.Minute
		claim := func(at time.Time) *app.WooConnection {
			t.Helper()
			c, err := r.ClaimWooSync(ctx, at, lease)
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
		if c := claim(t0); c == nil || c.CategoryID != cat {
			t.Fatalf("the first sync is not due: %+v", c)
		}
		// Pressed during the sync: not claimable meanwhile (the lease)...
		if err := r.RequestWooSync(ctx, cat, false, t0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if c := claim(t0.Add(2 * time.Minute)); c != nil {
			t.Fatalf("claimed twice within the lease: %+v", c)
		}
		// ...and due as soon as the sync ends, not at the sweep.
		done := t0.Add(3 * time.Minute)
		if err := r.FinishWooSync(ctx, cat, t0, &t0, done, done.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		c := claim(done.Add(time.Second))
		if c == nil || c.CategoryID != cat {
			t.Fatalf("the Sync now pressed during the sync was lost")
		}
		// That one ends with no press: the next is the sweep's.
		done2 := done.Add(2 * time.Minute)
		if err := r.FinishWooSync(ctx, cat, t0, &t0, done2, done2.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if c := claim(done2.Add(59 * time.Minute)); c != nil {
			t.Fatalf("due before the sweep with no press: %+v", c)
		}
		c = claim(done2.Add(time.Hour))
		if c == nil {
			t.Fatal("the sweep's sync is not due")
		}
		// A press during a sync that fails: due at once, not after the backoff.
		at := done2.Add(time.Hour)
		if err := r.RequestWooSync(ctx, cat, false, at.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := r.FailWooSync(ctx, cat, t0, "failed", at.Add(30*time.Minute)); err != nil {
			t.Fatal(err)
		}
		if c := claim(at.Add(2 * time.Minute)); c == nil {
			t.Fatal("the Sync now pressed during a failing sync waits for the backoff")
		}
		// A failure with no press waits for the backoff.
		if err := r.FailWooSync(ctx, cat, t0, "failed", at.Add(30*time.Minute)); err != nil {
			t.Fatal(err)
		}
		if c := claim(at.Add(3 * time.Minute)); c != nil {
			t.Fatalf("retried before the backoff: %+v", c)
		}
		// A replica that died mid-sync: due again when its lease ends.
		if c := claim(at.Add(30 * time.Minute)); c == nil {
			t.Fatal("not due after the backoff")
		}
		if c := claim(at.Add(30*time.Minute + lease + time.Second)); c == nil {
			t.Fatal("a sync whose replica died is not due again after the lease")
		}
		if _, err := r.Pool.Exec(ctx, `UPDATE woocommerce_connections SET status = 'DISCONNECTED' WHERE category_id = $1`, cat); err != nil {
			t.Fatal(err)
		}
	}
}

// TestWooStoreCountsStayThroughASync: Connections' counts are the store's,
// apart from the running sync's progress: a sync's start and its progress
// leave them as they were, orders count as Analytics counts them, trashed
// orders go, and a new store starts from nothing.
func TestWooStoreCountsStayThroughASync(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	ctx := context.Background()
	t0 := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	cat := connectWoo(t, r, t0)
	counts := func() app.StoreCounts {
		t.Helper()
		c, err := r.WooStoreCounts(ctx, cat)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if c := counts(); c != (app.StoreCounts{}) {
		t.Fatalf("a new store %+v", c)
	}
	if err := r.SaveWooStoreCounts(ctx, cat, t0, 14, 230); err != nil {
		t.Fatal(err)
	}
	london := zone(t, "Europe/London")
	paid := t0.Add(time.Hour)
	orders := []domain.Order{
		domain.WooSales(domain.WooOrder{ID: 1, Status: "completed", Currency: "GBP", CreatedAt: t0, PaidAt: &paid, Total: 1200}, london),
		domain.WooSales(domain.WooOrder{ID: 2, Status: "processing", Currency: "GBP", CreatedAt: t0, PaidAt: &paid, Total: 800}, london),
		domain.WooSales(domain.WooOrder{ID: 3, Status: "failed", Currency: "GBP", CreatedAt: t0, Total: 500}, london),
	}
	if err := r.SaveWooOrders(ctx, cat, t0, orders); err != nil {
		t.Fatal(err)
	}
	if c := counts(); c != (app.StoreCounts{Orders: 2, Products: 14, Customers: 230}) {
		t.Fatalf("after the first sync %+v", c)
	}
	// A "Sync now" of what changed: claimed, its progress says 1 order so far.
	if err := r.RequestWooSync(ctx, cat, false, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if c, err := r.ClaimWooSync(ctx, t0.Add(time.Hour), time.Minute); err != nil || c == nil {
		t.Fatal(c, err)
	}
	if err := r.SaveWooProgress(ctx, cat, t0, app.Progress{Phase: "ORDERS", Orders: 1, OrdersTotal: 1}); err != nil {
		t.Fatal(err)
	}
	if c := counts(); c != (app.StoreCounts{Orders: 2, Products: 14, Customers: 230}) {
		t.Fatalf("during a sync %+v", c)
	}
	if err := r.DeleteWooOrders(ctx, cat, t0, []string{domain.WooOrderID(2), domain.WooOrderID(99)}); err != nil {
		t.Fatal(err)
	}
	if c := counts(); c.Orders != 1 {
		t.Fatalf("after a trashed order went %+v", c)
	}
	// Another store connected in its place starts from nothing but orders.
	if err := r.CreateWooState(ctx, app.WooState{State: "v-" + cat, CategoryID: cat, UserID: "u", StoreURL: "https://y.example",
		CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := r.ConnectWooCommerce(ctx, app.WooConnection{CategoryID: cat, StoreURL: "https://y.example", KeyID: 2,
		KeyPermissions: "read_write", ConsumerKey: []byte("k"), ConsumerSecret: []byte("s"), ConnectedBy: "u",
		ConnectedAt: t0.Add(2 * time.Hour)}, "v-"+cat); err != nil {
		t.Fatal(err)
	}
	if c := counts(); c.Products != 0 || c.Customers != 0 {
		t.Fatalf("another store's counts kept %+v", c)
	}
	// A write for the connection that was replaced is refused.
	if err := r.DeleteWooOrders(ctx, cat, t0, []string{domain.WooOrderID(1)}); err != domain.ErrConnectionChanged {
		t.Fatalf("delete for a replaced connection: %v", err)
	}
}
