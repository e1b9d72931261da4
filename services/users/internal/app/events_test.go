package app

import (
	"context"
	"errors"
	"testing"
	"time"

	"uplift.dev/users/internal/domain"
)

// fakeEventStore holds one user's billing source time and what was written.
type fakeEventStore struct {
	known  bool
	stored *time.Time
	set    []domain.BillingChange
	audit  []domain.AuditEntry
}

func (f *fakeEventStore) BillingSourceTime(context.Context, string) (*time.Time, error) {
	if !f.known {
		return nil, domain.ErrNotFound
	}
	return f.stored, nil
}

func (f *fakeEventStore) SetBilling(_ context.Context, c domain.BillingChange) error {
	f.set = append(f.set, c)
	return nil
}

func (f *fakeEventStore) Audit(_ context.Context, e ...domain.AuditEntry) error {
	f.audit = append(f.audit, e...)
	return nil
}

// TestApplyBillingChange: the app decides whether a billing event applies
// (the consumer used to hand a raw transaction to the repository, which
// decided in SQL).
func TestApplyBillingChange(t *testing.T) {
	t.Parallel()
	a, _, _ := newApp()
	t0 := time.Date(2026, 3, 29, 1, 30, 0, 0, time.UTC)
	for _, tt := range []struct {
		name  string
		store *fakeEventStore
		at    time.Time
		want  bool
	}{
		{"unknown user", &fakeEventStore{}, t0, false},
		{"first change", &fakeEventStore{known: true}, t0, true},
		{"older than shown", &fakeEventStore{known: true, stored: &t0}, t0.Add(-time.Second), false},
		{"newer than shown", &fakeEventStore{known: true, stored: &t0}, t0.Add(time.Hour), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := a.ApplyBillingChange(context.Background(), tt.store, domain.BillingChange{UserID: "u", Tier: "pro", SourceTime: tt.at})
			if err != nil || got != tt.want || (len(tt.store.set) == 1) != tt.want {
				t.Fatalf("applied=%v err=%v writes=%d, want %v", got, err, len(tt.store.set), tt.want)
			}
		})
	}
	s := &fakeEventStore{}
	if err := a.RecordActedOnBehalf(context.Background(), s, domain.AuditEntry{Action: "x"}); !errors.Is(err, ErrIncompleteAuditEntry) || len(s.audit) != 0 {
		t.Fatalf("entry without actor: %v, %d written", err, len(s.audit))
	}
	if err := a.RecordActedOnBehalf(context.Background(), s, domain.AuditEntry{ActorID: "a", Action: "x"}); err != nil || len(s.audit) != 1 {
		t.Fatalf("entry: %v, %d written", err, len(s.audit))
	}
}
