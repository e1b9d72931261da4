package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
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

func TestUpdateDueRoundTripsAndHonoursDueTime(t *testing.T) {
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
	n, err := repo.UpdateDue(ctx, now, 1, func(got *domain.Email) bool {
		if got.Key != e.Key || got.Params.Link != link || got.To != e.To || got.Kind != domain.KindPasswordReset || got.UserID != "u1" {
			t.Errorf("claimed %+v", got)
		}
		got.MarkFailed(now, errors.New("refused"), p)
		return true
	})
	if err != nil || n != 1 {
		t.Fatalf("claim: %v %v", n, err)
	}
	if n, _ := repo.UpdateDue(ctx, now.Add(59*time.Second), 1, func(*domain.Email) bool { return true }); n != 0 {
		t.Fatal("claimed before next_attempt_at")
	}
	n, err = repo.UpdateDue(ctx, now.Add(time.Minute), 1, func(got *domain.Email) bool {
		if got.Attempts != 1 || got.LastError != "refused" {
			t.Errorf("retry state not saved: %+v", got)
		}
		got.MarkSent(now.Add(time.Minute))
		return true
	})
	if err != nil || n != 1 {
		t.Fatalf("second claim: %v %v", n, err)
	}
	if n, _ := repo.UpdateDue(ctx, now.Add(48*time.Hour), 1, func(*domain.Email) bool { return true }); n != 0 {
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
		_, err := repo.UpdateDue(ctx, now, 1, func(e *domain.Email) bool {
			first = e.Key
			close(holding)
			<-release
			e.MarkSent(now)
			return true
		})
		if err != nil {
			t.Error(err)
		}
	})
	<-holding
	var second string
	n, err := repo.UpdateDue(ctx, now, 1, func(e *domain.Email) bool { second = e.Key; e.MarkSent(now); return true })
	close(release)
	wg.Wait()
	if err != nil || n != 1 || second == "" || second == first {
		t.Fatalf("first %q second %q claimed %d err %v", first, second, n, err)
	}
}

// A batch is claimed in due order and saved whole, each row as fn left
// it; when fn stops, the row it stopped on and those after it stay as they
// were, and a context that ends meanwhile does not undo what was sent.
func TestUpdateDueSavesABatchAndLeavesWhatItStoppedOn(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	for i := range 5 {
		e, _ := domain.NewWelcome(fmt.Sprintf("u%d", i), fmt.Sprintf("u%d@shop.example", i), "")
		if _, err := repo.Add(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now().Add(time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	var seen []string
	n, err := repo.UpdateDue(ctx, now, 4, func(e *domain.Email) bool {
		if len(seen) == 3 {
			return false // the sender stops: a shutdown
		}
		seen = append(seen, e.To)
		if len(seen) == 2 {
			e.MarkFailed(now, errors.New("refused"), domain.RetryPolicy{Base: time.Minute, Max: time.Hour})
		} else {
			e.MarkSent(now)
		}
		cancel() // the shutdown began while the batch was sending
		return true
	})
	if err != nil || n != 4 {
		t.Fatalf("claimed %d, %v; want 4 of 5", n, err)
	}
	if want := []string{"u0@shop.example", "u1@shop.example", "u2@shop.example"}; !slices.Equal(seen, want) {
		t.Fatalf("handed %v, want %v (due order)", seen, want)
	}
	var stored string
	if err := repo.DB.QueryRow(context.Background(),
		`SELECT string_agg(recipient || ' ' || status || ' ' || attempts, ',' ORDER BY id) FROM emails`).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(stored, ",")
	want := []string{"u0@shop.example sent 1", "u1@shop.example pending 1", "u2@shop.example sent 1",
		"u3@shop.example pending 0", "u4@shop.example pending 0"}
	if !slices.Equal(got, want) {
		t.Errorf("stored\n%v\nwant\n%v", got, want)
	}
}
