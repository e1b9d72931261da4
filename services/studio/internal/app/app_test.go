package app_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/google/uuid"

	"uplift.dev/studio/internal/app"
	"uplift.dev/studio/internal/domain"
)

// The API's use cases over small fakes: the plan a category's owner has,
// the month's counts, and the access check.

// fakeRepo answers the plan and the month's counts; the other storage
// calls are not used by these tests (the embedded nil interface panics).
type fakeRepo struct {
	app.Repository
	plan                domain.Plan
	downloads, toolRuns map[string]int // by month
	months              []string       // months asked for, in order
}

func (f *fakeRepo) Plan(context.Context, string) (domain.Plan, error) { return f.plan, nil }
func (f *fakeRepo) DownloadsUsed(_ context.Context, _, month string) (int, error) {
	f.months = append(f.months, month)
	return f.downloads[month], nil
}
func (f *fakeRepo) JobsUsed(_ context.Context, _, month string) (int, error) {
	return f.toolRuns[month], nil
}

// access lets owner's category through and refuses the rest.
type access struct{ allowed string }

func (a access) Check(_ context.Context, categoryID string) error {
	if categoryID != a.allowed {
		return domain.ErrPermissionDenied
	}
	return nil
}

func newApp(repo app.Repository, allowed string, now time.Time) *app.App {
	return app.New(repo, nil, access{allowed}, slog.New(slog.NewTextHandler(io.Discard, nil))).
		WithClock(func() time.Time { return now })
}

// The free plan's allowance counts the current calendar month (UTC) of the
// app's clock, and a paid plan has no limits.
func TestGetPlanCountsTheClocksMonth(t *testing.T) {
	t.Parallel()
	cat := uuid.NewString()
	repo := &fakeRepo{plan: domain.Plan{Tier: domain.FreeTier},
		downloads: map[string]int{"2026-02": 3, "2026-03": 1}, toolRuns: map[string]int{"2026-03": 29}}
	p, err := newApp(repo, cat, time.Date(2026, 3, 1, 0, 30, 0, 0, time.UTC)).GetPlan(context.Background(), cat)
	if err != nil {
		t.Fatal(err)
	}
	if p.Paid || p.DownloadsLeft != domain.FreeDownloadsPerMonth-1 || p.JobsLeft != domain.FreeJobsPerMonth-29 {
		t.Fatalf("free plan on 1 March: %+v", p)
	}
	if len(repo.months) != 1 || repo.months[0] != "2026-03" {
		t.Fatalf("months counted: %v", repo.months)
	}
	repo.plan = domain.Plan{Tier: "pro"}
	p, err = newApp(repo, cat, time.Now()).GetPlan(context.Background(), cat)
	if err != nil || !p.Paid || p.DownloadsLeft != -1 || p.JobsLeft != -1 {
		t.Fatalf("pro plan: %+v, %v", p, err)
	}
}

// Another store's plan is not the caller's to read.
func TestGetPlanAsksTheAccessCheckFirst(t *testing.T) {
	t.Parallel()
	repo := &fakeRepo{plan: domain.Plan{Tier: domain.FreeTier}}
	_, err := newApp(repo, uuid.NewString(), time.Now()).GetPlan(context.Background(), uuid.NewString())
	if !errors.Is(err, domain.ErrPermissionDenied) || len(repo.months) != 0 {
		t.Fatalf("another store's plan: %v (counted %v)", err, repo.months)
	}
}

// eventStore records what the event use cases write.
type eventStore struct {
	owners map[string]string // category → user
	plans  map[string]domain.Plan
	forgot []string
}

func newEventStore() *eventStore {
	return &eventStore{owners: map[string]string{}, plans: map[string]domain.Plan{}}
}

func (s *eventStore) SetOwner(_ context.Context, categoryID, userID string) error {
	s.owners[categoryID] = userID
	return nil
}
func (s *eventStore) ApplyBilling(_ context.Context, userID string, p domain.Plan, _ time.Time) error {
	s.plans[userID] = p
	return nil
}
func (s *eventStore) ForgetUser(_ context.Context, userID string) error {
	s.forgot = append(s.forgot, userID)
	return nil
}

// The other services' events, as the app applies them: a new user's own
// category, their plan (no tier is the free plan) and, once they are
// deleted, nothing of theirs; an event naming no user can never apply.
func TestEventsFromOtherServices(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a := newApp(&fakeRepo{}, "", time.Now())
	s := newEventStore()
	cat := uuid.NewString()
	if err := a.RecordOwner(ctx, s, "u1", cat); err != nil || s.owners[cat] != "u1" {
		t.Fatalf("owner: %v %v", s.owners, err)
	}
	for _, bad := range []string{"", "not-a-category"} {
		if err := a.RecordOwner(ctx, s, "u2", bad); err != nil || len(s.owners) != 1 {
			t.Fatalf("user created with category %q: %v %v", bad, s.owners, err)
		}
	}
	if err := a.ApplyBillingChange(ctx, s, "u1", "", true, time.Now()); err != nil ||
		s.plans["u1"] != (domain.Plan{Tier: domain.FreeTier, IsManuallySet: true}) {
		t.Fatalf("a change without a tier: %v %v", s.plans, err)
	}
	if err := a.ApplyBillingChange(ctx, s, "u1", "pro", false, time.Now()); err != nil || s.plans["u1"].Tier != "pro" {
		t.Fatalf("pro: %v %v", s.plans, err)
	}
	if err := a.ForgetUser(ctx, s, "u1"); err != nil || len(s.forgot) != 1 {
		t.Fatalf("forget: %v %v", s.forgot, err)
	}
	for name, err := range map[string]error{
		"created": a.RecordOwner(ctx, s, "", cat),
		"billing": a.ApplyBillingChange(ctx, s, "", "pro", false, time.Now()),
		"deleted": a.ForgetUser(ctx, s, ""),
	} {
		if !errors.Is(err, app.ErrNoUser) {
			t.Errorf("%s without a user: %v", name, err)
		}
	}
}
