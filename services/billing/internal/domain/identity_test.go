package domain

import (
	"testing"
	"time"
)

func TestIdentityStatusFor(t *testing.T) {
	for typ, want := range map[string]string{
		EventIdentityVerified: IdentityVerified, EventIdentityRequiresInput: IdentityRequiresInput,
		EventIdentityCanceled: IdentityCanceled,
	} {
		if got, ok := IdentityStatusFor(typ); !ok || got != want {
			t.Errorf("%s: %q %v, want %q", typ, got, ok, want)
		}
	}
	for _, typ := range []string{EventCheckoutCompleted, "identity.verification_session.processing", "identity.verification_session.created", ""} {
		if got, ok := IdentityStatusFor(typ); ok {
			t.Errorf("%s: recorded as %q", typ, got)
		}
	}
}

func TestIdentityOutcomeSupersedes(t *testing.T) {
	// Created times on both sides of a DST change (US Eastern, 2026-03-08),
	// compared as instants: the zone an event is read in must not matter.
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	before := time.Date(2026, 3, 8, 1, 59, 59, 0, ny)
	after := before.Add(time.Second) // 03:00:00 EDT
	o := func(session, status string, at time.Time) IdentityOutcome {
		return IdentityOutcome{UserID: "u1", SessionID: session, Status: status, At: at}
	}
	ptr := func(x IdentityOutcome) *IdentityOutcome { return &x }
	for _, tt := range []struct {
		name    string
		next    IdentityOutcome
		current *IdentityOutcome
		want    bool
	}{
		{"first outcome", o("vs_1", IdentityRequiresInput, before), nil, true},
		{"newer event", o("vs_1", IdentityVerified, after), ptr(o("vs_1", IdentityRequiresInput, before)), true},
		{"newer event in UTC", o("vs_1", IdentityVerified, after.UTC()), ptr(o("vs_1", IdentityRequiresInput, before)), true},
		{"late older event", o("vs_1", IdentityRequiresInput, before), ptr(o("vs_1", IdentityVerified, after)), false},
		{"same second, final wins", o("vs_1", IdentityVerified, before), ptr(o("vs_1", IdentityRequiresInput, before)), true},
		{"same second, requires_input loses", o("vs_1", IdentityRequiresInput, before), ptr(o("vs_1", IdentityVerified, before)), false},
		{"same second, canceled does not undo verified", o("vs_1", IdentityCanceled, before), ptr(o("vs_1", IdentityVerified, before)), false},
		{"same second, other session", o("vs_2", IdentityVerified, before), ptr(o("vs_1", IdentityRequiresInput, before)), false},
		{"a later session", o("vs_2", IdentityRequiresInput, after.Add(24*time.Hour)), ptr(o("vs_1", IdentityCanceled, after)), true},
	} {
		if got := tt.next.Supersedes(tt.current); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
