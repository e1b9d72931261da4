package postgres_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"uplift.dev/platform/events"
	"uplift.dev/stores/internal/adapters/postgres"
	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
)

var t0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

func connect(t *testing.T, r postgres.Repo, cat, shop string, at time.Time) string {
	t.Helper()
	moved, err := r.Connect(context.Background(), app.Connection{CategoryID: cat, Shop: shop, ConnectedBy: "u-" + cat, ConnectedAt: at,
		Tokens: app.SealedTokens{Access: []byte("sealed-" + cat), Refresh: []byte("r"), RefreshExpiresAt: at.Add(time.Hour), Scopes: []string{"read_orders"}}})
	if err != nil {
		t.Fatal(err)
	}
	return moved
}

func claim(t *testing.T, r postgres.Repo, now time.Time) *app.Connection {
	t.Helper()
	c, err := r.ClaimSync(context.Background(), now, now.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func conn(t *testing.T, r postgres.Repo, cat string) *app.Connection {
	t.Helper()
	c, err := r.Connection(context.Background(), cat)
	if err != nil || c == nil {
		t.Fatalf("connection of %s: %+v %v", cat, c, err)
	}
	return c
}

func TestAStateIsUsedOnceBeforeItExpires(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	st := app.OAuthState{State: "s1", CategoryID: uuid.NewString(), UserID: "u1", Shop: "fern.myshopify.com", CreatedAt: t0, ExpiresAt: t0.Add(10 * time.Minute)}
	if err := r.CreateState(ctx, st); err != nil {
		t.Fatal(err)
	}
	if got, err := r.State(ctx, "s1", t0.Add(time.Minute)); err != nil || got.Shop != st.Shop || got.UserID != "u1" {
		t.Fatalf("state: %+v %v", got, err)
	}
	if _, err := r.State(ctx, "s1", t0.Add(11*time.Minute)); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("expired state: %v", err)
	}
	// Two callbacks racing with the same state: one wins.
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := r.UseState(ctx, "s1", t0.Add(time.Minute))
			if err != nil && !errors.Is(err, domain.ErrNotFound) {
				t.Error(err)
			}
			mu.Lock()
			won += map[bool]int{true: 1}[err == nil]
			mu.Unlock()
		}()
	}
	wg.Wait()
	if won != 1 {
		t.Fatalf("%d callbacks used the state", won)
	}
	if _, err := r.State(ctx, "s1", t0.Add(time.Minute)); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("a used state: %v", err)
	}
	late := app.OAuthState{State: "s2", CategoryID: uuid.NewString(), UserID: "u1", Shop: "fern.myshopify.com", CreatedAt: t0, ExpiresAt: t0.Add(10 * time.Minute)}
	if err := r.CreateState(ctx, late); err != nil {
		t.Fatal(err)
	}
	if _, err := r.UseState(ctx, "s2", t0.Add(10*time.Minute)); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("a state used as it expires: %v", err)
	}
}

// A shop connected to another account moves, in one transaction: the
// account it left keeps a MOVED row and its imported orders, loses the
// tokens and the shop's data, and is told once.
func TestConnectingAShopElsewhereMovesIt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	from, to := uuid.NewString(), uuid.NewString()
	const shop = "fern.myshopify.com"
	connect(t, r, from, shop, t0)
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	save(t, r, from, order("shopify:1", domain.SourceShopify, at, sold(at, "tea", 1, 1000)),
		order("import:#7", domain.SourceImport, at, sold(at, "cup", 1, 300)))
	if err := r.SaveCatalog(ctx, link(t, r, from), []app.CatalogProduct{{ID: "p1", Title: "Tea"}}, []app.CatalogCustomer{{ID: "c1", Orders: 1}}); err != nil {
		t.Fatal(err)
	}
	if err := r.SaveSessions(ctx, link(t, r, from), []app.DaySessions{{Day: domain.DateOf(at), Sessions: 40, Completed: 2}}); err != nil {
		t.Fatal(err)
	}

	if moved := connect(t, r, to, shop, t0.Add(time.Hour)); moved != from {
		t.Fatalf("moved from %q, want %s", moved, from)
	}
	left := conn(t, r, from)
	if left.Status != app.StatusMoved || left.Tokens.Access != nil || left.Tokens.Refresh != nil || left.SyncRequestedAt != nil {
		t.Fatalf("the account it left: %+v", left)
	}
	if d := days(t, r, from, "2026-03-02", "2026-03-02")["2026-03-02"]; d.Orders != 1 || d.Gross != 300 || d.Sessions != nil {
		t.Fatalf("the account it left has %+v, want only its imported order", d)
	}
	if c, _ := r.ShopCounts(ctx, from); c != (app.StoreCounts{}) {
		t.Fatalf("the account it left still counts %+v", c)
	}
	if c, err := r.ConnectionByShop(ctx, shop); err != nil || c == nil || c.CategoryID != to || string(c.Tokens.Access) != "sealed-"+to {
		t.Fatalf("the shop's connection: %+v %v", c, err)
	}
	if n := outbox(t, r, events.SubjectShopifyShopMoved); n != 1 {
		t.Fatalf("%d ShopifyShopMoved, want 1", n)
	}
	// Connecting again where it is moves nothing and tells no one.
	if moved := connect(t, r, to, shop, t0.Add(2*time.Hour)); moved != "" {
		t.Fatalf("reconnect moved from %q", moved)
	}
	if n := outbox(t, r, events.SubjectShopifyShopMoved); n != 1 {
		t.Fatalf("%d ShopifyShopMoved after a reconnect, want 1", n)
	}
	if cats, err := r.CategoriesOfShop(ctx, shop); err != nil || len(cats) != 2 {
		t.Fatalf("categories of the shop: %v %v", cats, err)
	}
}

func TestWorkersRacingForSyncsClaimEachOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	want := map[string]bool{}
	for i := range 6 {
		cat := uuid.NewString()
		connect(t, r, cat, uuid.NewString()+".myshopify.com", t0.Add(time.Duration(i)*time.Second))
		want[cat] = true
	}
	now := t0.Add(time.Minute)
	var wg sync.WaitGroup
	var mu sync.Mutex
	got := map[string]int{}
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				c, err := r.ClaimSync(ctx, now, now.Add(time.Minute))
				if err != nil {
					t.Error(err)
					return
				}
				if c == nil {
					return
				}
				mu.Lock()
				got[c.CategoryID]++
				claims := len(got)
				for _, n := range got {
					claims += n - 1
				}
				mu.Unlock()
				if claims > 2*len(want) { // a claimed sync was claimed again: stop, and fail below
					return
				}
			}
		}()
	}
	wg.Wait()
	for cat := range want {
		if got[cat] != 1 {
			t.Fatalf("claims %v, want each connection once", got)
		}
	}
	// A worker that died: its lease runs out and the sync is claimed again.
	if c := claim(t, r, now.Add(30*time.Second)); c != nil {
		t.Fatalf("claimed %s under a live lease", c.CategoryID)
	}
	if c := claim(t, r, now.Add(2*time.Minute)); c == nil {
		t.Fatal("an expired lease was not taken over")
	}
}

func TestFinishingASyncKeepsARequestThatCameMeanwhile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	cat := uuid.NewString()
	connect(t, r, cat, "fern.myshopify.com", t0)
	c := claim(t, r, t0.Add(time.Minute))
	// "Sync now" pressed while the sync runs.
	if err := r.RequestSync(ctx, cat, false, t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	wm := t0.Add(90 * time.Second)
	if err := r.FinishSync(ctx, c.Link(), c.ClaimedAt, app.SyncResult{OK: true, Watermark: wm, Currency: "USD", Timezone: "America/New_York", At: t0.Add(3 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	got := conn(t, r, cat)
	if got.SyncRequestedAt == nil || got.Progress.Phase != app.PhaseDone || got.Watermark == nil || !got.Watermark.Equal(wm) {
		t.Fatalf("after the sync: %+v", got)
	}
	again := claim(t, r, t0.Add(4*time.Minute))
	if again == nil {
		t.Fatal("the request made during the sync was lost")
	}
	if err := r.FinishSync(ctx, again.Link(), again.ClaimedAt, app.SyncResult{OK: true, Watermark: wm, At: t0.Add(5 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	if got := conn(t, r, cat); got.SyncRequestedAt != nil {
		t.Fatalf("a finished sync is still requested at %v", got.SyncRequestedAt)
	}
	if c := claim(t, r, t0.Add(time.Hour)); c != nil {
		t.Fatal("a finished sync was claimed")
	}
}

// A failing sync backs off 1, 2, 4 … minutes, at most an hour, and stops
// after 8 attempts until the owner asks again.
func TestAFailingSyncBacksOffAndStops(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	cat := uuid.NewString()
	connect(t, r, cat, "fern.myshopify.com", t0)
	now := t0
	for i, wait := range []time.Duration{1, 2, 4, 8, 16, 32, 60} {
		c := claim(t, r, now)
		if c == nil {
			t.Fatalf("attempt %d was not claimable at %v", i+1, now)
		}
		if err := r.FinishSync(ctx, c.Link(), c.ClaimedAt, app.SyncResult{Error: "Shopify answered 502", Retry: true, At: now}); err != nil {
			t.Fatal(err)
		}
		got := conn(t, r, cat)
		if want := now.Add(wait * time.Minute); got.SyncRequestedAt == nil || !got.SyncRequestedAt.Equal(want) ||
			got.Progress.Phase != app.PhaseFailed || got.Progress.Error != "Shopify answered 502" {
			t.Fatalf("after failure %d: requested %v, want %v (%+v)", i+1, got.SyncRequestedAt, want, got.Progress)
		}
		if c := claim(t, r, now.Add(wait*time.Minute-time.Second)); c != nil {
			t.Fatalf("claimed before the back-off of attempt %d ended", i+1)
		}
		now = now.Add(wait * time.Minute)
	}
	c := claim(t, r, now)
	if err := r.FinishSync(ctx, c.Link(), c.ClaimedAt, app.SyncResult{Error: "again", Retry: true, At: now}); err != nil {
		t.Fatal(err)
	}
	if got := conn(t, r, cat); got.SyncRequestedAt != nil {
		t.Fatalf("an eighth failure is retried at %v", got.SyncRequestedAt)
	}
	// 'Try again' starts over.
	if err := r.RequestSync(ctx, cat, false, now); err != nil {
		t.Fatal(err)
	}
	c = claim(t, r, now)
	if err := r.FinishSync(ctx, c.Link(), c.ClaimedAt, app.SyncResult{Error: "once more", Retry: true, At: now}); err != nil {
		t.Fatal(err)
	}
	if got := conn(t, r, cat); got.SyncRequestedAt == nil || !got.SyncRequestedAt.Equal(now.Add(time.Minute)) {
		t.Fatalf("after 'Try again' the back-off is %v, want a minute", got.SyncRequestedAt)
	}
}

func TestADisconnectedShopIsNeitherSyncedNorSwept(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	gone, synced, fresh, asked := uuid.NewString(), uuid.NewString(), uuid.NewString(), uuid.NewString()
	for _, cat := range []string{gone, synced, fresh, asked} {
		connect(t, r, cat, cat+".myshopify.com", t0)
	}
	for range 4 {
		c := claim(t, r, t0)
		at := t0
		if c.CategoryID == fresh {
			at = t0.Add(time.Hour)
		}
		if err := r.FinishSync(ctx, c.Link(), c.ClaimedAt, app.SyncResult{OK: true, At: at}); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.RequestSync(ctx, asked, false, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := r.Disconnect(ctx, gone, app.StatusDisconnected, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if c := conn(t, r, gone); c.Status != app.StatusDisconnected || c.Tokens.Access != nil || c.Tokens.Refresh != nil {
		t.Fatalf("disconnected: %+v", c)
	}
	if err := r.RequestSync(ctx, gone, true, t0.Add(time.Minute)); !errors.Is(err, domain.ErrNotConnected) {
		t.Fatalf("a sync of a disconnected shop: %v", err)
	}
	if err := r.SaveTokens(ctx, gone, app.SealedTokens{Access: []byte("new")}); err != nil {
		t.Fatal(err)
	}
	if c := conn(t, r, gone); c.Tokens.Access != nil {
		t.Fatal("tokens were saved on a disconnected shop")
	}
	n, err := r.RequestSweeps(ctx, t0.Add(30*time.Minute), t0.Add(31*time.Minute))
	if err != nil || n != 1 {
		t.Fatalf("swept %d %v, want only the connected shop last synced before the cut", n, err)
	}
	if c := conn(t, r, synced); c.SyncRequestedAt == nil || !c.SyncRequestedAt.Equal(t0.Add(31*time.Minute)) {
		t.Fatalf("the swept shop: %v", c.SyncRequestedAt)
	}
	if c := conn(t, r, asked); !c.SyncRequestedAt.Equal(t0.Add(time.Minute)) {
		t.Fatalf("a pending request was moved to %v", c.SyncRequestedAt)
	}
}

func webhook(shop, id string, at time.Time) app.WebhookEvent {
	return app.WebhookEvent{EventID: id, Shop: shop, Topic: "orders/create", Payload: []byte(`{"id":1}`), ReceivedAt: at}
}

func TestWebhooksAreKeptOncePerShopAndRetriedBoundedly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	const a, b = "a.myshopify.com", "b.myshopify.com"
	for _, c := range []struct {
		ev  app.WebhookEvent
		new bool
	}{
		{webhook(a, "e1", t0), true},
		{webhook(a, "e1", t0.Add(time.Second)), false},
		{webhook(b, "e1", t0.Add(2*time.Second)), true}, // the same id sent for another shop
		{webhook(a, "e2", t0.Add(3*time.Second)), true},
	} {
		if isNew, err := r.RecordWebhook(ctx, c.ev); err != nil || isNew != c.new {
			t.Fatalf("%s %s: new %v %v, want %v", c.ev.Shop, c.ev.EventID, isNew, err, c.new)
		}
	}
	pending, err := r.PendingWebhooks(ctx, 2)
	if err != nil || len(pending) != 2 || pending[0].Shop != a || pending[0].EventID != "e1" || pending[1].Shop != b ||
		string(pending[0].Payload) != `{"id": 1}` {
		t.Fatalf("pending %+v %v", pending, err)
	}
	if err := r.FinishWebhook(ctx, a, "e1", "", t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	// Finishing a's e1 leaves b's e1, the same id, to be done.
	if pending, _ := r.PendingWebhooks(ctx, 10); len(pending) != 2 || pending[0].Shop != b || pending[0].EventID != "e1" {
		t.Fatalf("pending %+v, want b's e1 and a's e2", pending)
	}
	for range 10 {
		if err := r.FinishWebhook(ctx, b, "e1", "Shopify answered 500", t0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	var attempts int
	if err := r.Pool.QueryRow(ctx, `SELECT attempts FROM webhook_events WHERE shop = $1 AND event_id = 'e1'`, a).Scan(&attempts); err != nil || attempts != 1 {
		t.Fatalf("a's e1 was tried %d times %v, want once: b's failures are b's", attempts, err)
	}
	pending, _ = r.PendingWebhooks(ctx, 10)
	if len(pending) != 1 || pending[0].Shop != a || pending[0].EventID != "e2" || pending[0].Attempts != 0 {
		t.Fatalf("pending %+v, want only a's e2 (b's e1 failed 10 times)", pending)
	}
}

// shop/redact: the shop's data goes from every category it fed; their
// imported orders, other shops and undone deliveries stay.
func TestDeletingAShopsDataLeavesEverythingElse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	const shop, other = "fern.myshopify.com", "oak.myshopify.com"
	old, cur, bystander := uuid.NewString(), uuid.NewString(), uuid.NewString()
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	// Each category's data is written while it is connected: the old one
	// wrote its share before it was uninstalled.
	fill := func(cat string) {
		save(t, r, cat, order("shopify:1", domain.SourceShopify, at, sold(at, "tea", 1, 1000)),
			order("import:#2", domain.SourceImport, at, sold(at, "cup", 1, 300)))
		if err := r.SaveCatalog(ctx, link(t, r, cat), []app.CatalogProduct{{ID: "p1", Title: "Tea"}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	connect(t, r, old, shop, t0)
	fill(old)
	if err := r.Disconnect(ctx, old, app.StatusUninstalled, t0); err != nil {
		t.Fatal(err)
	}
	connect(t, r, cur, shop, t0)
	connect(t, r, bystander, other, t0)
	fill(cur)
	fill(bystander)
	for _, ev := range []app.WebhookEvent{webhook(shop, "done", t0), webhook(shop, "todo", t0), webhook(other, "done", t0)} {
		if _, err := r.RecordWebhook(ctx, ev); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []string{shop, other} {
		if err := r.FinishWebhook(ctx, s, "done", "", t0); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.Pool.Exec(ctx, `DELETE FROM signals_due`); err != nil {
		t.Fatal(err)
	}

	if err := r.DeleteShopData(ctx, shop); err != nil {
		t.Fatal(err)
	}
	for _, cat := range []string{old, cur} {
		if c, _ := r.Connection(ctx, cat); c != nil {
			t.Fatalf("%s keeps its connection: %+v", cat, c)
		}
		if d := days(t, r, cat, "2026-03-02", "2026-03-02")["2026-03-02"]; d.Orders != 1 || d.Gross != 300 {
			t.Fatalf("%s has %+v, want only its imported order", cat, d)
		}
		if c, _ := r.ShopCounts(ctx, cat); c != (app.StoreCounts{}) {
			t.Fatalf("%s counts %+v", cat, c)
		}
	}
	if d := days(t, r, bystander, "2026-03-02", "2026-03-02")["2026-03-02"]; d.Orders != 2 {
		t.Fatalf("the other shop's store lost orders: %+v", d)
	}
	if c, _ := r.ShopCounts(ctx, bystander); c.Orders != 1 || c.Products != 1 {
		t.Fatalf("the other shop's counts %+v", c)
	}
	var left []string
	rows, _ := r.Pool.Query(ctx, `SELECT shop || '/' || event_id FROM webhook_events ORDER BY 1`)
	left, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(left) != 2 || left[0] != "fern.myshopify.com/todo" || left[1] != "oak.myshopify.com/done" {
		t.Fatalf("deliveries left %v %v", left, err)
	}
	// The signals of both categories it fed go again, without its orders.
	due, err := r.DueSignals(ctx, "", 10)
	if err != nil || len(due) != 2 {
		t.Fatalf("due %+v %v, want the two categories it fed", due, err)
	}
}

// A deleted category leaves no row in any table that holds a category's
// data, including tables added after this test was written, and another
// category's rows stay.
func TestDeletingACategoryRemovesItFromEveryTable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	gone, kept := uuid.NewString(), uuid.NewString()
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	for _, cat := range []string{gone, kept} {
		connect(t, r, cat, cat+".myshopify.com", t0)
		save(t, r, cat, order("shopify:1", domain.SourceShopify, at, sold(at, "tea", 1, 1000)))
		if err := r.SaveImport(ctx, cat, func(func([]domain.Order) error) (app.Import, error) { return anImport(cat, at), nil }); err != nil {
			t.Fatal(err)
		}
		if err := r.SaveCatalog(ctx, link(t, r, cat), []app.CatalogProduct{{ID: "p1"}}, []app.CatalogCustomer{{ID: "c1"}}); err != nil {
			t.Fatal(err)
		}
		if err := r.SaveSessions(ctx, link(t, r, cat), []app.DaySessions{{Day: domain.DateOf(at), Sessions: 1}}); err != nil {
			t.Fatal(err)
		}
		if err := r.SaveShopifyDaily(ctx, link(t, r, cat), []app.ShopifyDay{{Day: domain.DateOf(at), Orders: 1}}); err != nil {
			t.Fatal(err)
		}
		if err := r.CreateState(ctx, app.OAuthState{State: "s-" + cat, CategoryID: cat, UserID: "u", Shop: "x", CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if _, err := r.PublishDailyReport(ctx, cat, app.DailyReport{Date: domain.DateOf(at)}, at); err != nil {
			t.Fatal(err)
		}
		if err := r.CreateWooState(ctx, app.WooState{State: "w-" + cat, CategoryID: cat, UserID: "u", StoreURL: "https://x.example",
			CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if err := r.ConnectWooCommerce(ctx, app.WooConnection{CategoryID: cat, StoreURL: "https://x.example", KeyID: 1,
			KeyPermissions: "read_write", ConsumerKey: []byte("k"), ConsumerSecret: []byte("s"), ConnectedBy: "u", ConnectedAt: t0}, "w-"+cat); err != nil {
			t.Fatal(err)
		}
		if fresh, err := r.NewWooDelivery(ctx, cat, "d-1", t0); err != nil || !fresh {
			t.Fatal(fresh, err)
		}
		if fresh, err := r.NewWooDelivery(ctx, cat, "d-1", t0); err != nil || fresh {
			t.Fatalf("a delivery seen twice is fresh: %v %v", fresh, err)
		}
		if err := r.CreateGA4State(ctx, app.GA4State{State: "g-" + cat, CategoryID: cat, UserID: "u", Verifier: []byte("v"),
			CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if err := r.ConnectGA4(ctx, app.GA4Connection{CategoryID: cat, RefreshToken: []byte("r"), ConnectedBy: "u", ConnectedAt: t0}); err != nil {
			t.Fatal(err)
		}
		if err := r.SelectGA4Property(ctx, cat, app.GA4Property{ID: "420000001", Name: "p"}, domain.SessionsGA4, t0); err != nil {
			t.Fatal(err)
		}
		if err := r.SaveGA4Days(ctx, cat, t0, "420000001", app.GA4Report{}, []app.GA4Day{{Day: domain.DateOf(at), Sessions: 5, Purchases: 1}}, t0, t0); err != nil {
			t.Fatal(err)
		}
	}
	if err := pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error { return postgres.TxRepo{Tx: tx}.DeleteCategory(ctx, gone) }); err != nil {
		t.Fatal(err)
	}
	rows, err := r.Pool.Query(ctx, `SELECT table_name::text FROM information_schema.columns
		WHERE table_schema = current_schema() AND column_name = 'category_id' ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(tables) < 10 {
		t.Fatalf("tables %v %v", tables, err)
	}
	for _, table := range tables {
		var g, k int
		if err := r.Pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE category_id = $1), count(*) FILTER (WHERE category_id = $2) FROM `+
			pgx.Identifier{table}.Sanitize(), gone, kept).Scan(&g, &k); err != nil {
			t.Fatal(err)
		}
		if g != 0 || k == 0 {
			t.Errorf("%s: %d rows of the deleted category, %d of the other", table, g, k)
		}
	}
}

// Accounts racing to connect one shop: it ends connected to exactly one,
// every account it left is told, and a loser of the insert race hears
// ErrShopTaken, never a raw database error.
func TestAccountsRacingForAShopLeaveItConnectedOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	const shop = "fern.myshopify.com"
	var wg sync.WaitGroup
	var mu sync.Mutex
	moves := 0
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cat := uuid.NewString()
			moved, err := r.Connect(ctx, app.Connection{CategoryID: cat, Shop: shop, ConnectedBy: "u", ConnectedAt: t0.Add(time.Duration(i) * time.Second),
				Tokens: app.SealedTokens{Access: []byte("a"), Scopes: []string{"read_orders"}}})
			if err != nil && !errors.Is(err, domain.ErrShopTaken) {
				t.Error(err)
			}
			if moved != "" {
				mu.Lock()
				moves++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	var connected, movedRows int
	if err := r.Pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE status = 'CONNECTED'), count(*) FILTER (WHERE status = 'MOVED')
		FROM shopify_connections WHERE shop = $1`, shop).Scan(&connected, &movedRows); err != nil {
		t.Fatal(err)
	}
	if connected != 1 || movedRows != moves || outbox(t, r, events.SubjectShopifyShopMoved) != moves {
		t.Fatalf("%d connected, %d moved rows, %d moves reported, %d events", connected, movedRows, moves, outbox(t, r, events.SubjectShopifyShopMoved))
	}
}
