package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"uplift.dev/billing/internal/adapters/postgres"
	"uplift.dev/billing/internal/app"
	"uplift.dev/billing/internal/domain"
	"uplift.dev/billing/migrations"
	"uplift.dev/platform/events"
	"uplift.dev/platform/pgtest"
	platformpg "uplift.dev/platform/postgres"
)

func newRepo(t *testing.T) postgres.Repo {
	t.Helper()
	pool := pgtest.Pool(t, "billing")
	if err := platformpg.Migrate(context.Background(), pool, events.Migrations(), migrations.FS); err != nil {
		t.Fatal(err)
	}
	return postgres.Repo{Pool: pool}
}

// outbox counts the events queued on subject.
func outbox(t *testing.T, r postgres.Repo, subject string) int {
	t.Helper()
	var n int
	if err := r.Pool.QueryRow(context.Background(), `SELECT count(*) FROM outbox WHERE subject = $1`, subject).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

var t0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

func TestCustomers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	if id, err := r.CustomerID(ctx, "u1"); err != nil || id != "" {
		t.Fatalf("no customer yet: %q %v", id, err)
	}
	if id, err := r.UserByCustomer(ctx, "cus_unknown"); err != nil || id != "" {
		t.Fatalf("unknown customer: %q %v", id, err)
	}
	if id, err := r.SaveCustomer(ctx, "u1", "cus_1"); err != nil || id != "cus_1" {
		t.Fatalf("first save: %q %v", id, err)
	}
	// Two racing checkouts: the second one's customer is not stored; both use the first.
	if id, err := r.SaveCustomer(ctx, "u1", "cus_2"); err != nil || id != "cus_1" {
		t.Fatalf("second save: %q %v, want the first customer kept", id, err)
	}
	if id, err := r.UserByCustomer(ctx, "cus_1"); err != nil || id != "u1" {
		t.Fatalf("customer's user: %q %v", id, err)
	}
	// A customer id another user holds is not given to a second user.
	if id, err := r.SaveCustomer(ctx, "u2", "cus_1"); err != nil || id != "" {
		t.Fatalf("another user's customer: %q %v, want none stored", id, err)
	}
	if id, err := r.UserByCustomer(ctx, "cus_1"); err != nil || id != "u1" {
		t.Fatalf("the customer moved to %q %v", id, err)
	}
}

func TestChangeAppliesOnceAndTellsTheUsersService(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	if b, err := r.Billing(ctx, "u1"); err != nil || b != nil {
		t.Fatalf("no billing yet: %+v %v", b, err)
	}
	pro := domain.Change{Tier: "pro", SourceTime: t0}
	d, replay, err := r.Change(ctx, "evt_1", "u1", pro)
	if err != nil || d != domain.Applied || replay {
		t.Fatalf("first change: %v %v %v", d, replay, err)
	}
	b, err := r.Billing(ctx, "u1")
	if err != nil || b == nil || b.Tier != "pro" || b.IsManuallySet || !b.SourceTime.Equal(t0) {
		t.Fatalf("stored %+v %v", b, err)
	}
	if n := outbox(t, r, events.SubjectBillingChanged); n != 1 {
		t.Fatalf("%d BillingChanged queued, want 1", n)
	}

	// The same Stripe event again changes nothing and says so.
	if d, replay, err := r.Change(ctx, "evt_1", "u1", domain.Change{Tier: "free", SourceTime: t0.Add(time.Hour)}); err != nil || !replay || d != domain.IgnoredSame {
		t.Fatalf("replay: %v %v %v", d, replay, err)
	}
	if seen, err := r.EventSeen(ctx, "evt_1"); err != nil || !seen {
		t.Fatalf("event seen: %v %v", seen, err)
	}
	// An older event is ignored and recorded.
	if d, _, err := r.Change(ctx, "evt_0", "u1", domain.Change{Tier: "free", SourceTime: t0.Add(-time.Hour)}); err != nil || d != domain.IgnoredOlder {
		t.Fatalf("older: %v %v", d, err)
	}
	// A newer event with the same tier moves the source time on without an event.
	if d, _, err := r.Change(ctx, "evt_2", "u1", domain.Change{Tier: "pro", SourceTime: t0.Add(time.Minute)}); err != nil || d != domain.Applied {
		t.Fatalf("same tier, newer: %v %v", d, err)
	}
	if b, _ := r.Billing(ctx, "u1"); !b.SourceTime.Equal(t0.Add(time.Minute)) {
		t.Fatalf("source time %v, want it moved on", b.SourceTime)
	}
	if n := outbox(t, r, events.SubjectBillingChanged); n != 1 {
		t.Fatalf("%d BillingChanged queued, want still 1", n)
	}
}

func TestAManualChangeHoldsAndIsAudited(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	audit := domain.AuditEntry{ActorID: "admin", UserID: "u1", Action: domain.ActionSetBilling, Detail: "tier pro", At: t0}
	if d, _, err := r.Change(ctx, "", "u1", domain.Change{Tier: "pro", IsManuallySet: true, SourceTime: t0}, audit); err != nil || d != domain.Applied {
		t.Fatalf("manual: %v %v", d, err)
	}
	// Stripe does not override a tier an admin set by hand.
	if d, _, err := r.Change(ctx, "evt_1", "u1", domain.Change{Tier: "free", SourceTime: t0.Add(time.Hour)}); err != nil || d != domain.IgnoredManual {
		t.Fatalf("stripe over manual: %v %v", d, err)
	}
	if b, _ := r.Billing(ctx, "u1"); b.Tier != "pro" || !b.IsManuallySet {
		t.Fatalf("stored %+v", b)
	}
	var actor, action string
	if err := r.Pool.QueryRow(ctx, `SELECT actor_id, action FROM audit_log WHERE user_id = 'u1'`).Scan(&actor, &action); err != nil ||
		actor != "admin" || action != domain.ActionSetBilling {
		t.Fatalf("audit %q %q %v", actor, action, err)
	}
	if n := outbox(t, r, events.SubjectActedOnBehalf); n != 1 {
		t.Fatalf("%d ActedOnBehalf queued, want 1 for the users service's log", n)
	}
}

func TestRecordEvent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	if seen, err := r.EventSeen(ctx, "evt_1"); err != nil || seen {
		t.Fatalf("unseen: %v %v", seen, err)
	}
	if replay, err := r.RecordEvent(ctx, "evt_1"); err != nil || replay {
		t.Fatalf("first: %v %v", replay, err)
	}
	if replay, err := r.RecordEvent(ctx, "evt_1"); err != nil || !replay {
		t.Fatalf("second: %v %v, want a replay", replay, err)
	}
}

func TestPendingCheckoutIsUsedOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	if _, err := r.PendingCheckout(ctx, "nope"); !errors.Is(err, domain.ErrCheckoutNotFound) {
		t.Fatalf("unknown token: %v", err)
	}
	if err := r.CompletePendingCheckout(ctx, "nope"); !errors.Is(err, domain.ErrCheckoutNotFound) {
		t.Fatalf("completing an unknown token: %v", err)
	}
	p := app.PendingCheckout{Token: "tok", UserID: "u1", CategoryID: "c1", CustomerID: "cus_1", Tier: "pro", PriceID: "price_1",
		ReferralID: "", Amount: 2900, SuccessURL: "http://localhost:3000/?ok", CancelURL: "http://localhost:3000/"}
	if err := r.SavePendingCheckout(ctx, p); err != nil {
		t.Fatal(err)
	}
	if err := r.SavePendingCheckout(ctx, p); err == nil {
		t.Fatal("a second checkout with the same token was stored")
	}
	if got, err := r.PendingCheckout(ctx, "tok"); err != nil || got != p {
		t.Fatalf("read back %+v %v", got, err)
	}
	if err := r.CompletePendingCheckout(ctx, "tok"); err != nil {
		t.Fatal(err)
	}
	if err := r.CompletePendingCheckout(ctx, "tok"); !errors.Is(err, domain.ErrCheckoutNotFound) {
		t.Fatalf("completed twice: %v", err)
	}
	if _, err := r.PendingCheckout(ctx, "tok"); !errors.Is(err, domain.ErrCheckoutNotFound) {
		t.Fatalf("a used checkout is still offered: %v", err)
	}
}

func TestIdentityOutcomes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	if o, err := r.IdentityOutcome(ctx, "u1"); err != nil || o != nil {
		t.Fatalf("none yet: %+v %v", o, err)
	}
	input := domain.IdentityOutcome{UserID: "u1", SessionID: "vs_1", Status: domain.IdentityRequiresInput, At: t0}
	if applied, replay, err := r.RecordIdentityOutcome(ctx, "evt_1", input); err != nil || !applied || replay {
		t.Fatalf("first: %v %v %v", applied, replay, err)
	}
	if applied, replay, err := r.RecordIdentityOutcome(ctx, "evt_1", input); err != nil || applied || !replay {
		t.Fatalf("replayed: %v %v %v", applied, replay, err)
	}
	// Late: an older event never overwrites a newer outcome.
	late := domain.IdentityOutcome{UserID: "u1", SessionID: "vs_0", Status: domain.IdentityCanceled, At: t0.Add(-time.Minute)}
	if applied, _, err := r.RecordIdentityOutcome(ctx, "evt_0", late); err != nil || applied {
		t.Fatalf("late: %v %v", applied, err)
	}
	// In the same second, the session's final outcome wins over requires_input.
	verified := domain.IdentityOutcome{UserID: "u1", SessionID: "vs_1", Status: domain.IdentityVerified, At: t0}
	if applied, _, err := r.RecordIdentityOutcome(ctx, "evt_2", verified); err != nil || !applied {
		t.Fatalf("verified: %v %v", applied, err)
	}
	if o, err := r.IdentityOutcome(ctx, "u1"); err != nil || o == nil || *o != verified {
		t.Fatalf("stored %+v %v, want %+v", o, err, verified)
	}
}

func TestPendingIdentityIsUsedOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	if _, err := r.PendingIdentity(ctx, "nope"); !errors.Is(err, domain.ErrCheckoutNotFound) {
		t.Fatalf("unknown token: %v", err)
	}
	p := app.PendingIdentity{Token: "tok", UserID: "u1", SessionID: "vs_1", ReturnURL: "http://localhost:3000/?identity=returned"}
	if err := r.SavePendingIdentity(ctx, p); err != nil {
		t.Fatal(err)
	}
	if got, err := r.PendingIdentity(ctx, "tok"); err != nil || got != p {
		t.Fatalf("read back %+v %v", got, err)
	}
	if err := r.CompletePendingIdentity(ctx, "tok"); err != nil {
		t.Fatal(err)
	}
	if err := r.CompletePendingIdentity(ctx, "tok"); !errors.Is(err, domain.ErrCheckoutNotFound) {
		t.Fatalf("completed twice: %v", err)
	}
}

func TestDeleteUserDataLeavesOthers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	for _, u := range []string{"u1", "u2"} {
		if _, err := r.SaveCustomer(ctx, u, "cus_"+u); err != nil {
			t.Fatal(err)
		}
		if _, _, err := r.Change(ctx, "", u, domain.Change{Tier: "pro", SourceTime: t0}); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := r.Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := (postgres.TxRepo{Tx: tx}).DeleteUserData(ctx, "u1"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if b, _ := r.Billing(ctx, "u1"); b != nil {
		t.Fatalf("u1's billing left: %+v", b)
	}
	if id, _ := r.CustomerID(ctx, "u1"); id != "" {
		t.Fatalf("u1's customer left: %q", id)
	}
	if b, _ := r.Billing(ctx, "u2"); b == nil {
		t.Fatal("u2's billing went too")
	}
}
