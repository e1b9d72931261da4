package postgres_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"uplift.dev/digest/internal/adapters/postgres"
	"uplift.dev/digest/internal/domain"
	"uplift.dev/digest/migrations"
	"uplift.dev/platform/events"
	"uplift.dev/platform/pgtest"
	platformpg "uplift.dev/platform/postgres"
)

func newRepo(t *testing.T) postgres.Repo {
	t.Helper()
	pool := pgtest.Pool(t, "digest")
	if err := platformpg.Migrate(context.Background(), pool, events.Migrations(), migrations.FS); err != nil {
		t.Fatal(err)
	}
	return postgres.Repo{DB: pool}
}

func TestAddIsIdempotentAndCommitsWithTheTransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo := newRepo(t)
	e, _ := domain.NewWelcome("u1", "a@shop.example", "Al")
	if added, err := repo.Add(ctx, e); err != nil || !added {
		t.Fatalf("first add: %v %v", added, err)
	}
	if added, err := repo.Add(ctx, e); err != nil || added {
		t.Fatalf("second add: %v %v", added, err)
	}
	// Queued inside a rolled-back event transaction: nothing is left.
	r, _ := domain.NewWelcome("u2", "b@shop.example", "Bo")
	_ = pgx.BeginFunc(ctx, repo.DB, func(tx pgx.Tx) error {
		if _, err := (postgres.Repo{DB: tx}).Add(ctx, r); err != nil {
			t.Fatal(err)
		}
		return errors.New("handler failed")
	})
	var n int
	if err := repo.DB.QueryRow(ctx, `SELECT count(*) FROM emails`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("rows %d %v", n, err)
	}
}

func TestUpdateNextDueRoundTripsAndHonoursDueTime(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo := newRepo(t)
	link := "https://uplift.example/r?oobCode=s3cret"
	e, _ := domain.NewPasswordReset("r1", "u1", "a@shop.example", link)
	if _, err := repo.Add(ctx, e); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	p := domain.RetryPolicy{Base: time.Minute, Max: time.Hour}
	found, err := repo.UpdateNextDue(ctx, now, func(got *domain.Email) error {
		if got.Key != e.Key || got.Params.Link != link || got.To != e.To || got.Kind != domain.KindPasswordReset || got.UserID != "u1" {
			t.Errorf("claimed %+v", got)
		}
		got.MarkFailed(now, errors.New("refused"), p)
		return nil
	})
	if err != nil || !found {
		t.Fatalf("claim: %v %v", found, err)
	}
	if found, _ := repo.UpdateNextDue(ctx, now.Add(59*time.Second), func(*domain.Email) error { return nil }); found {
		t.Fatal("claimed before next_attempt_at")
	}
	found, err = repo.UpdateNextDue(ctx, now.Add(time.Minute), func(got *domain.Email) error {
		if got.Attempts != 1 || got.LastError != "refused" {
			t.Errorf("retry state not saved: %+v", got)
		}
		got.MarkSent(now.Add(time.Minute))
		return nil
	})
	if err != nil || !found {
		t.Fatalf("second claim: %v %v", found, err)
	}
	if found, _ := repo.UpdateNextDue(ctx, now.Add(48*time.Hour), func(*domain.Email) error { return nil }); found {
		t.Fatal("a sent email came due again")
	}
	var status, params string
	var sentAt *time.Time
	if err := repo.DB.QueryRow(ctx, `SELECT status, params::text, sent_at FROM emails`).Scan(&status, &params, &sentAt); err != nil {
		t.Fatal(err)
	}
	if status != "sent" || sentAt == nil || params != "{}" {
		t.Fatalf("stored: %s %s %v", status, params, sentAt)
	}
	if n, err := repo.DeleteUser(ctx, "u1"); err != nil || n != 1 {
		t.Fatalf("delete: %d %v", n, err)
	}
}

// Two senders at once never get the same row: the first holds its lock
// while it "sends", and the second skips it.
func TestConcurrentSendersSkipLockedRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo := newRepo(t)
	for _, id := range []string{"u1", "u2"} {
		e, _ := domain.NewWelcome(id, id+"@shop.example", "")
		if _, err := repo.Add(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now().Add(time.Second)
	holding := make(chan struct{})
	release := make(chan struct{})
	var first string
	var wg sync.WaitGroup
	wg.Go(func() {
		_, err := repo.UpdateNextDue(ctx, now, func(e *domain.Email) error {
			first = e.Key
			close(holding)
			<-release
			e.MarkSent(now)
			return nil
		})
		if err != nil {
			t.Error(err)
		}
	})
	<-holding
	var second string
	found, err := repo.UpdateNextDue(ctx, now, func(e *domain.Email) error { second = e.Key; e.MarkSent(now); return nil })
	close(release)
	wg.Wait()
	if err != nil || !found || second == "" || second == first {
		t.Fatalf("first %q second %q found %v err %v", first, second, found, err)
	}
}
