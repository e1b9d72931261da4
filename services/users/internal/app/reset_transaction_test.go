package app_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"uplift.dev/platform/events"
	"uplift.dev/platform/pgtest"
	"uplift.dev/platform/postgres"
	pgrepo "uplift.dev/users/internal/adapters/postgres"
	"uplift.dev/users/internal/app"
	"uplift.dev/users/internal/domain"
	"uplift.dev/users/migrations"
)

// slowFirebase holds PasswordResetLink until release is closed.
type slowFirebase struct {
	app.Identity
	called  chan struct{}
	release chan struct{}
	fail    error
}

func (f *slowFirebase) PasswordResetLink(ctx context.Context, email string) (string, error) {
	close(f.called)
	<-f.release
	if f.fail != nil {
		return "", f.fail
	}
	return "https://reset.example/?oobCode=" + email, nil
}

// TestPasswordResetCallsFirebaseOutsideATransaction: the reset used to ask
// Firebase for the link inside its database transaction, holding the row
// lock (and a connection) for as long as Firebase took. Now the slot is
// claimed and committed, Firebase is called with nothing open, and the
// event is recorded in a short transaction of its own; a failed link frees
// the slot for the next try.
func TestPasswordResetCallsFirebaseOutsideATransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.Pool(t, "users")
	if err := postgres.Migrate(ctx, pool, events.Migrations(), migrations.FS); err != nil {
		t.Fatal(err)
	}
	repo := pgrepo.Repo{Pool: pool}
	const email = "slow-firebase@example.com"
	if err := repo.Create(ctx, domain.User{ID: "u-slow", Email: email, DisplayName: "Slow", CategoryID: "c-slow", OriginalCategoryID: "c-slow"}, true); err != nil {
		t.Fatal(err)
	}
	resetEvents := func() (n int) {
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM outbox WHERE subject = $1`, events.SubjectPasswordResetRequested).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	for _, tt := range []struct {
		name       string
		fail       error
		wantEvents int
	}{
		{"Firebase fails: no event, the slot is free again", errors.New("firebase: unavailable"), 0},
		{"Firebase answers: one event", nil, 1},
	} {
		fb := &slowFirebase{called: make(chan struct{}), release: make(chan struct{}), fail: tt.fail}
		a := app.New(fb, repo, slog.New(slog.NewTextHandler(io.Discard, nil)))
		wctx, stop := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- a.RunPasswordResets(wctx) }()
		if err := a.ResetPassword(ctx, email); err != nil {
			t.Fatal(err)
		}
		select {
		case <-fb.called:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Firebase was never asked", tt.name)
		}
		// While Firebase thinks, the claim is committed (visible to others)
		// and no transaction of ours sits open on it.
		var visible, open int
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM password_reset_requests WHERE email = $1`, email).Scan(&visible); err != nil {
			t.Fatal(err)
		}
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
			AND state LIKE 'idle in transaction%' AND query ILIKE '%password_reset_requests%'`).Scan(&open); err != nil {
			t.Fatal(err)
		}
		if visible != 1 || open != 0 {
			close(fb.release)
			t.Fatalf("%s: while calling Firebase the claim is visible %d times and %d transactions are open on it", tt.name, visible, open)
		}
		close(fb.release)
		deadline := time.Now().Add(10 * time.Second)
		for resetEvents() != tt.wantEvents && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond)
		if n := resetEvents(); n != tt.wantEvents {
			t.Fatalf("%s: %d reset events, want %d", tt.name, n, tt.wantEvents)
		}
		stop()
		<-done
	}
}
