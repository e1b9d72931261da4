package app

import (
	"context"
	"errors"
	"testing"
	"time"

	"uplift.dev/users/internal/domain"
)

func TestListAuditLogReadsOnlyYourOwnLastNinetyDays(t *testing.T) {
	ctx := context.Background()
	// Across a daylight-saving change in Europe (29 March 2026): the window is
	// 90 days of elapsed time, not 90 calendar days in some zone.
	for _, now := range []time.Time{
		time.Date(2026, 6, 27, 12, 0, 0, 0, time.UTC),
		time.Date(2026, 3, 29, 1, 30, 0, 0, time.FixedZone("CET", 3600)),
		time.Date(2026, 11, 25, 23, 59, 0, 0, time.UTC),
	} {
		a, _, repo := newApp()
		a.now = func() time.Time { return now }
		owner := domain.Caller{UID: "owner"}
		if _, err := a.ListAuditLog(ctx, owner, "owner", ""); err != nil {
			t.Fatal(err)
		}
		if _, err := a.ListAuditLog(ctx, domain.Caller{UID: "up", Uplifter: true}, "up", "actor"); err != nil {
			t.Fatal(err)
		}
		if _, err := a.ListAuditLog(ctx, domain.Caller{UID: "admin", Admin: true}, "owner", "subject"); err != nil {
			t.Fatal(err)
		}
		want := []domain.AuditQuery{
			{UserID: "owner", Role: domain.AuditAsSubject, Since: now.Add(-90 * 24 * time.Hour), Limit: domain.AuditLogLimit},
			{UserID: "up", Role: domain.AuditAsActor, Since: now.Add(-90 * 24 * time.Hour), Limit: domain.AuditLogLimit},
			{UserID: "owner", Role: domain.AuditAsSubject, Since: now.Add(-90 * 24 * time.Hour), Limit: domain.AuditLogLimit},
		}
		if len(repo.auditQueries) != len(want) {
			t.Fatalf("queries %+v", repo.auditQueries)
		}
		for i := range want {
			if got := repo.auditQueries[i]; got != want[i] || !got.Since.Equal(want[i].Since) {
				t.Errorf("%s: query %d = %+v, want %+v", now, i, got, want[i])
			}
		}
	}
}

func TestListAuditLogRefusesOthersAndBadInput(t *testing.T) {
	ctx := context.Background()
	a, _, repo := newApp()
	for _, tc := range []struct {
		caller      domain.Caller
		user, role  string
		wantDenied  bool
		wantInvalid string
	}{
		{domain.Caller{UID: "up", Uplifter: true}, "owner", "", true, ""}, // an uplifter reads only their own
		{domain.Caller{UID: "someone"}, "owner", "actor", true, ""},       // nobody else's
		{domain.Caller{}, "owner", "", true, ""},                          // signed out
		{domain.Caller{UID: "owner"}, "owner", "everyone", false, "role"}, // unknown side
		{domain.Caller{UID: "owner"}, "", "", false, "userId"},
	} {
		_, err := a.ListAuditLog(ctx, tc.caller, tc.user, tc.role)
		var v *domain.ValidationError
		switch {
		case tc.wantDenied && !errors.Is(err, domain.ErrPermissionDenied):
			t.Errorf("%+v reading %q: %v, want permission denied", tc.caller, tc.user, err)
		case tc.wantInvalid != "" && (!errors.As(err, &v) || v.Field != tc.wantInvalid):
			t.Errorf("%+v reading %q as %q: %v, want invalid %s", tc.caller, tc.user, tc.role, err, tc.wantInvalid)
		}
	}
	if len(repo.auditQueries) != 0 {
		t.Errorf("refused reads reached the store: %+v", repo.auditQueries)
	}
}
