package app

import (
	"context"
	"reflect"
	"testing"
	"time"

	"uplift.dev/users/internal/domain"
)

// The app, not the repository, says which events a change implies: a new
// email and a first unsubscribe each hand the repository their event,
// dated by the app's clock, and repeating the unsubscribe hands none.
func TestChangesHandTheirEventsToTheRepository(t *testing.T) {
	a, _, repo := newApp()
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	a = a.WithClock(func() time.Time { return at })
	repo.users["u1"] = domain.User{ID: "u1", Email: "old@example.com", OriginalCategoryID: catOwn}
	ctx := context.Background()
	if _, err := a.UpdateEmail(ctx, domain.Caller{UID: "u1"}, "u1", "new@example.com"); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := a.Unsubscribe(ctx, domain.Caller{UID: "u1"}, "u1"); err != nil {
			t.Fatal(err)
		}
	}
	want := []domain.Event{
		domain.EmailChanged{UserID: "u1", OldEmail: "old@example.com", NewEmail: "new@example.com", At: at},
		domain.Unsubscribed{UserID: "u1", Email: "new@example.com", CategoryID: catOwn, At: at},
	}
	if !reflect.DeepEqual(repo.events, want) {
		t.Fatalf("events %#v, want %#v", repo.events, want)
	}
}
