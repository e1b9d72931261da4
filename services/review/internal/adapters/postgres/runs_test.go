package postgres_test

import (
	"context"
	"testing"
	"time"

	"uplift.dev/platform/clock"
	"uplift.dev/platform/events"
	"uplift.dev/platform/pgtest"
	platformpg "uplift.dev/platform/postgres"
	"uplift.dev/review/internal/adapters/postgres"
	"uplift.dev/review/internal/domain"
	"uplift.dev/review/migrations"
)

// Prune deletes the runs asked for before the cut that no run holds now,
// answered or not (a crashed run's lapsed claim); a run asked for long
// ago but claimed again now stays, and so does every recent one. A
// request delivered again after its run was pruned is reviewed afresh; one
// whose run was kept is left alone.
func TestPruneKeepsRecentAndHeldRuns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.Pool(t, "review")
	if err := platformpg.Migrate(ctx, pool, events.Migrations(), migrations.FS); err != nil {
		t.Fatal(err)
	}
	runs := postgres.New(pool, clock.Real)
	now := time.Now()
	old := now.Add(-20 * 24 * time.Hour)
	for _, r := range []struct {
		id              string
		created, claims time.Time
		done            bool
	}{
		{"old-answered", old, old.Add(11 * time.Minute), true},
		{"old-crashed", old, old.Add(11 * time.Minute), false},
		{"old-held-now", old, now.Add(10 * time.Minute), false},
		{"new-answered", now.Add(-time.Hour), now.Add(-50 * time.Minute), true},
		{"new-running", now.Add(-time.Minute), now.Add(10 * time.Minute), false},
	} {
		var doneAt *time.Time
		if r.done {
			doneAt = &r.claims
		}
		if _, err := pool.Exec(ctx, `INSERT INTO runs (report_id, category_id, site_url, claimed_until, done_at, created_at)
			VALUES ($1, 'c', 'https://shop.example', $2, $3, $4)`, r.id, r.claims, doneAt, r.created); err != nil {
			t.Fatal(err)
		}
	}
	n, err := runs.Prune(ctx, now.Add(-15*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("pruned %d runs, want 2", n)
	}
	var left []string
	rows, err := pool.Query(ctx, `SELECT report_id FROM runs ORDER BY report_id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		left = append(left, id)
	}
	if want := []string{"new-answered", "new-running", "old-held-now"}; len(left) != len(want) || left[0] != want[0] || left[1] != want[1] || left[2] != want[2] {
		t.Errorf("runs left %v, want %v", left, want)
	}
	claimed, done, err := runs.Claim(ctx, domain.ReviewRequest{ReportID: "old-answered", CategoryID: "c", SiteURL: "https://shop.example"}, now.Add(time.Minute))
	if err != nil || !claimed || done {
		t.Errorf("a pruned run's request again: claimed %v done %v (%v), want a fresh claim", claimed, done, err)
	}
	claimed, done, err = runs.Claim(ctx, domain.ReviewRequest{ReportID: "new-answered", CategoryID: "c", SiteURL: "https://shop.example"}, now.Add(time.Minute))
	if err != nil || claimed || !done {
		t.Errorf("a kept run's request again: claimed %v done %v (%v), want it answered already", claimed, done, err)
	}
}
