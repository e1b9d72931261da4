package app

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"uplift.dev/users/internal/domain"
)

// recoveryApp has owner@example.com (uid u1) with one second factor.
func recoveryApp(t *testing.T, floor time.Duration) (*App, *fakeIdentity, *fakeRepo) {
	t.Helper()
	a, id, repo := newApp()
	a.failureFloor = &floor
	repo.users["u1"] = domain.User{ID: "u1", Email: "owner@example.com"}
	id.factors = map[string]int{"u1": 1}
	return a, id, repo
}

func TestCreateRecoveryCodesNeedsAFreshSignInAndTwoStep(t *testing.T) {
	a, id, repo := recoveryApp(t, 0)
	now := time.Date(2026, 3, 8, 7, 5, 0, 0, time.UTC) // just after the US DST change
	a.now = func() time.Time { return now }
	ctx := context.Background()
	for name, authTime := range map[string]time.Time{
		"no auth_time": {}, "eleven minutes ago": now.Add(-11 * time.Minute),
		// The same instant read in New York, across the change: still too old.
		"eleven minutes ago in New York": now.Add(-11 * time.Minute).In(mustZone(t, "America/New_York")),
	} {
		if _, err := a.CreateRecoveryCodes(ctx, domain.Caller{UID: "u1", AuthTime: authTime}); !errors.Is(err, domain.ErrSignInNotFresh) {
			t.Errorf("%s: %v, want ErrSignInNotFresh", name, err)
		}
	}
	fresh := domain.Caller{UID: "u1", AuthTime: now.Add(-9 * time.Minute).In(mustZone(t, "America/New_York"))}
	id.factors["u1"] = 0
	if _, err := a.CreateRecoveryCodes(ctx, fresh); !errors.Is(err, domain.ErrNoSecondFactor) {
		t.Fatalf("without two-step: %v", err)
	}
	if len(repo.recovery["u1"]) != 0 || len(repo.audit) != 0 {
		t.Fatal("refused calls stored something")
	}
	id.factors["u1"] = 1
	codes, err := a.CreateRecoveryCodes(ctx, fresh)
	if err != nil {
		t.Fatal(err)
	}
	if len(codes) != domain.RecoveryCodeCount || len(repo.recovery["u1"]) != len(codes) {
		t.Fatalf("%d codes shown, %d stored", len(codes), len(repo.recovery["u1"]))
	}
	for _, c := range codes {
		norm, _ := domain.NormalizeRecoveryCode(c)
		if domain.MatchRecoveryCode(domain.HashRecoveryCode("u1", norm), repo.recovery["u1"]) < 0 {
			t.Errorf("code %s is not among the stored hashes", c)
		}
		for _, h := range repo.recovery["u1"] {
			if strings.Contains(string(h), norm) {
				t.Errorf("code %s stored as itself", c)
			}
		}
	}
	if got := repo.audit; len(got) != 1 || got[0].Action != domain.ActionNewRecoveryCodes || got[0].ActorID != "u1" || !got[0].At.Equal(now) {
		t.Fatalf("audit %+v", got)
	}
}

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestUseRecoveryCode(t *testing.T) {
	ctx := context.Background()
	setup := func(t *testing.T) (*App, *fakeIdentity, *fakeRepo, []string) {
		a, id, repo := recoveryApp(t, 0)
		a.now = time.Now
		codes, err := a.CreateRecoveryCodes(ctx, domain.Caller{UID: "u1", AuthTime: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		repo.audit = nil
		return a, id, repo, codes
	}

	t.Run("a code turns two-step off once, typed as people type it", func(t *testing.T) {
		a, id, repo, codes := setup(t)
		typed := strings.ToLower(strings.ReplaceAll(codes[3], "-", " "))
		if err := a.UseRecoveryCode(ctx, " Owner@Example.com ", typed, ""); err != nil {
			t.Fatal(err)
		}
		if id.factors["u1"] != 0 {
			t.Fatal("the second factor is still there")
		}
		if len(repo.audit) != 1 || repo.audit[0].Action != domain.ActionUseRecoveryCode || !strings.Contains(repo.audit[0].Detail, "9 codes left") {
			t.Fatalf("audit %+v", repo.audit)
		}
		id.factors["u1"] = 1 // set up again
		if err := a.UseRecoveryCode(ctx, "owner@example.com", codes[3], ""); !errors.Is(err, domain.ErrRecoveryCodeRejected) {
			t.Fatalf("the same code again: %v", err)
		}
		if id.factors["u1"] != 1 {
			t.Fatal("a used code removed the factor")
		}
		if err := a.UseRecoveryCode(ctx, "owner@example.com", codes[4], ""); err != nil {
			t.Fatalf("another code: %v", err)
		}
	})

	t.Run("every refusal is the same error", func(t *testing.T) {
		a, id, repo, codes := setup(t)
		repo.users["u2"] = domain.User{ID: "u2", Email: "owner2@example.com"}
		for name, try := range map[string][2]string{
			"wrong code":      {"owner@example.com", "0000-0000-0000-0000"},
			"malformed code":  {"owner@example.com", "not a code"},
			"unknown email":   {"nobody@example.com", codes[0]},
			"another's email": {"owner2@example.com", codes[0]},
		} {
			if err := a.UseRecoveryCode(ctx, try[0], try[1], ""); !errors.Is(err, domain.ErrRecoveryCodeRejected) {
				t.Errorf("%s: %v", name, err)
			}
		}
		repo.locked = map[string]bool{"u1": true}
		if err := a.UseRecoveryCode(ctx, "owner@example.com", codes[0], ""); !errors.Is(err, domain.ErrRecoveryCodeRejected) {
			t.Errorf("locked: %v", err)
		}
		if id.factors["u1"] != 1 || len(repo.audit) != 0 {
			t.Fatal("a refusal changed the account")
		}
		var ve *domain.ValidationError
		if err := a.UseRecoveryCode(ctx, "not-an-email", codes[0], ""); !errors.As(err, &ve) {
			t.Errorf("malformed email: %v", err)
		}
	})

	t.Run("when the factor cannot be removed the code is not spent", func(t *testing.T) {
		a, id, repo, codes := setup(t)
		id.removeErr = errors.New("firebase down")
		if err := a.UseRecoveryCode(ctx, "owner@example.com", codes[0], ""); err == nil || errors.Is(err, domain.ErrRecoveryCodeRejected) {
			t.Fatalf("%v, want the failure itself", err)
		}
		id.removeErr = nil
		if err := a.UseRecoveryCode(ctx, "owner@example.com", codes[0], ""); err != nil {
			t.Fatalf("the code after Firebase is back: %v", err)
		}
		if len(repo.audit) != 1 {
			t.Fatalf("audit %+v", repo.audit)
		}
	})
}

func TestRecoveryRefusalsTakeTheSameTime(t *testing.T) {
	const floor = 80 * time.Millisecond
	a, _, _ := recoveryApp(t, floor)
	ctx := context.Background()
	codes, err := a.CreateRecoveryCodes(ctx, domain.Caller{UID: "u1", AuthTime: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	for name, try := range map[string][2]string{
		"unknown email": {"nobody@example.com", codes[0]},
		"wrong code":    {"owner@example.com", "0000-0000-0000-0000"},
		"malformed":     {"owner@example.com", "x"},
	} {
		start := time.Now()
		_ = a.UseRecoveryCode(ctx, try[0], try[1], "")
		if took := time.Since(start); took < floor {
			t.Errorf("%s answered in %v, before the %v floor", name, took, floor)
		}
	}
	start := time.Now()
	if err := a.UseRecoveryCode(ctx, "owner@example.com", codes[1], ""); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took >= floor {
		t.Errorf("a good code waited %v", took)
	}
	// A caller that gives up is not held to the floor.
	cctx, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel()
	start = time.Now()
	_ = a.UseRecoveryCode(cctx, "nobody@example.com", codes[2], "")
	if took := time.Since(start); took >= floor {
		t.Errorf("a cancelled call waited %v", took)
	}
}
