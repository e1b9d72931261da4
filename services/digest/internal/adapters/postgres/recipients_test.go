package postgres_test

import (
	"context"
	"testing"
	"time"

	"uplift.dev/digest/internal/domain"
	"uplift.dev/platform/events"
)

var (
	monday  = time.Date(2026, 10, 26, 9, 0, 0, 0, time.UTC) // the day after Europe's clocks went back
	tuesday = monday.Add(24 * time.Hour)
)

// Events arrive in any order; the newest address wins, and a deleted user
// stays deleted whatever arrives after.
func TestRecipientKeepsTheNewestAddress(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	if err := r.SetRecipient(ctx, domain.Recipient{UserID: "u1", Email: "new@shop.example", CategoryID: "c1"}, tuesday); err != nil {
		t.Fatal(err)
	}
	// Monday's address and no category, delivered late.
	if err := r.SetRecipient(ctx, domain.Recipient{UserID: "u1", Email: "old@shop.example"}, monday); err != nil {
		t.Fatal(err)
	}
	got, ok, err := r.Recipient(ctx, "u1")
	if err != nil || !ok || got.Email != "new@shop.example" || got.CategoryID != "c1" {
		t.Fatalf("after a late older event: %+v %v %v", got, ok, err)
	}
	if owner, err := r.CategoryOwner(ctx, "c1"); err != nil || owner != "u1" {
		t.Fatalf("owner from the users' events: %q %v", owner, err)
	}

	if err := r.ForgetRecipient(ctx, "u1"); err != nil {
		t.Fatal(err)
	}
	if err := r.SetRecipient(ctx, domain.Recipient{UserID: "u1", Email: "again@shop.example"}, tuesday.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := r.Recipient(ctx, "u1"); err != nil || ok {
		t.Fatalf("a deleted user came back: %+v %v %v", got, ok, err)
	}
	if owner, _ := r.CategoryOwner(ctx, "c1"); owner != "" {
		t.Fatalf("a deleted user still owns c1: %q", owner)
	}
	if _, ok, _ := r.Recipient(ctx, "never-seen"); ok {
		t.Fatal("an unknown user has an address")
	}
}

func TestStoreSnapshotsApplyNewestFirst(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	first := domain.Store{CategoryID: "c1", OwnerUserID: "u1", Name: "Fernhill Tea", SiteURL: "https://fernhill.example", At: monday}
	if prev, applied, err := r.ApplyStore(ctx, first); err != nil || !applied || prev != nil {
		t.Fatalf("first snapshot: %+v %v %v", prev, applied, err)
	}
	renamed := first
	renamed.Name, renamed.DisableWeeklyEmail, renamed.At = "Fernhill Tea Co.", true, tuesday
	prev, applied, err := r.ApplyStore(ctx, renamed)
	if err != nil || !applied || prev == nil || prev.Name != "Fernhill Tea" || prev.DisableWeeklyEmail {
		t.Fatalf("newer snapshot: prev %+v %v %v", prev, applied, err)
	}
	// The same snapshot again and an older one change nothing.
	for _, s := range []domain.Store{renamed, first} {
		if prev, applied, err := r.ApplyStore(ctx, s); err != nil || applied || prev != nil {
			t.Fatalf("replayed %s: %+v %v %v", s.At, prev, applied, err)
		}
	}
	if name, err := r.StoreName(ctx, "c1"); err != nil || name != "Fernhill Tea Co." {
		t.Fatalf("name: %q %v", name, err)
	}
	if name, err := r.StoreName(ctx, "unknown"); err != nil || name != "" {
		t.Fatalf("unknown store's name: %q %v", name, err)
	}
	// The store's own owner outranks a user who merely names the category.
	if err := r.SetRecipient(ctx, domain.Recipient{UserID: "viewer", Email: "v@shop.example", CategoryID: "c1"}, monday); err != nil {
		t.Fatal(err)
	}
	if owner, err := r.CategoryOwner(ctx, "c1"); err != nil || owner != "u1" {
		t.Fatalf("owner: %q %v, want the snapshot's", owner, err)
	}
	if err := r.ForgetRecipient(ctx, "u1"); err != nil {
		t.Fatal(err)
	}
	if name, _ := r.StoreName(ctx, "c1"); name != "" {
		t.Fatalf("a deleted owner's store is still known as %q", name)
	}
}

func TestSubscriptionChangesPublishOnlyWhenTheStateFlips(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	if err := r.SetRecipient(ctx, domain.Recipient{UserID: "u1", Email: "a@shop.example", CategoryID: "c1"}, monday); err != nil {
		t.Fatal(err)
	}
	off := domain.Suppression{UserID: "u1", Kind: domain.KindWeeklyReview, Suppressed: true, At: monday, Source: "unsubscribe_link"}
	published := func() int {
		t.Helper()
		var n int
		if err := r.DB.QueryRow(ctx, `SELECT count(*) FROM outbox WHERE subject = $1`, events.SubjectEmailKindUnsubscribed).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if changed, err := r.ChangeSubscription(ctx, off); err != nil || !changed {
		t.Fatalf("turning it off: %v %v", changed, err)
	}
	// The same link clicked twice is one change.
	if changed, err := r.ChangeSubscription(ctx, off); err != nil || changed {
		t.Fatalf("the same choice again: %v %v", changed, err)
	}
	if n := published(); n != 1 {
		t.Fatalf("%d EmailKindUnsubscribed, want 1", n)
	}
	if s, _ := r.Suppressed(ctx, "u1", domain.KindWeeklyReview); !s {
		t.Fatal("not suppressed after unsubscribing")
	}
	if s, _ := r.Suppressed(ctx, "u1", domain.KindDailyReport); s {
		t.Fatal("another kind was suppressed too")
	}
	// An older choice that arrives late does not undo a newer one.
	stale := off
	stale.Suppressed, stale.At = false, monday.Add(-time.Hour)
	if changed, err := r.ChangeSubscription(ctx, stale); err != nil || changed {
		t.Fatalf("stale resubscribe: %v %v", changed, err)
	}
	on := off
	on.Suppressed, on.At = false, tuesday
	if changed, err := r.ChangeSubscription(ctx, on); err != nil || !changed {
		t.Fatalf("resubscribe: %v %v", changed, err)
	}
	if n := published(); n != 2 {
		t.Fatalf("%d EmailKindUnsubscribed, want 2 (off, then back on)", n)
	}
	if s, _ := r.Suppressed(ctx, "u1", domain.KindWeeklyReview); s {
		t.Fatal("still suppressed after resubscribing")
	}
	// Forgetting the user drops their choices.
	if _, err := r.ChangeSubscription(ctx, domain.Suppression{UserID: "u1", Kind: domain.KindDailyReport, Suppressed: true, At: tuesday}); err != nil {
		t.Fatal(err)
	}
	if err := r.ForgetRecipient(ctx, "u1"); err != nil {
		t.Fatal(err)
	}
	if s, _ := r.Suppressed(ctx, "u1", domain.KindDailyReport); s {
		t.Fatal("a deleted user's suppression is kept")
	}
}
