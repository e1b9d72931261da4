package domain

import (
	"errors"
	"strings"
	"testing"
)

func TestNewSignUp(t *testing.T) {
	tests := []struct {
		name, email, password, userName, source string
		wantField                               string
		wantEmail, wantName, wantSource         string
	}{
		{name: "defaults from email", email: "  Jane.Doe@Example.COM ", password: "secret1",
			wantEmail: "jane.doe@example.com", wantName: "jane.doe", wantSource: "web"},
		{name: "keeps given name and source", email: "a@b.co", password: "secret1", userName: "Ann", source: "shopify",
			wantEmail: "a@b.co", wantName: "Ann", wantSource: "shopify"},
		{name: "empty email", email: "", password: "secret1", wantField: "email"},
		{name: "no at", email: "jane.example.com", password: "secret1", wantField: "email"},
		{name: "display-name form", email: "Jane <jane@example.com>", password: "secret1", wantField: "email"},
		{name: "undotted domain", email: "jane@localhost", password: "secret1", wantField: "email"},
		{name: "short password", email: "a@b.co", password: "12345", wantField: "password"},
		{name: "multibyte password counted in runes", email: "a@b.co", password: "ééééé", wantField: "password"},
		{name: "huge name", email: "a@b.co", password: "secret1", userName: strings.Repeat("n", 201), wantField: "name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewSignUp(tt.email, tt.password, tt.userName, tt.source)
			if tt.wantField != "" {
				var ve *ValidationError
				if !errors.As(err, &ve) || ve.Field != tt.wantField {
					t.Fatalf("err = %v, want validation error on %s", err, tt.wantField)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Email != tt.wantEmail || s.Name != tt.wantName || s.Source != tt.wantSource {
				t.Fatalf("got %+v", s)
			}
		})
	}
}

func TestCallerPermissions(t *testing.T) {
	tests := []struct {
		caller       Caller
		read, change bool
	}{
		{Caller{}, false, false},
		{Caller{UID: "other"}, false, false},
		{Caller{UID: "u1"}, true, true},
		{Caller{UID: "up", Uplifter: true}, true, false},
		{Caller{UID: "ad", Admin: true}, true, true},
		// A backend reaches only the methods its grant names; it reads, it
		// does not change anyone's records.
		{Caller{Backend: "support"}, true, false},
	}
	for _, tt := range tests {
		if got := tt.caller.CanRead("u1"); got != tt.read {
			t.Errorf("%+v CanRead = %v", tt.caller, got)
		}
		if got := tt.caller.CanChange("u1"); got != tt.change {
			t.Errorf("%+v CanChange = %v", tt.caller, got)
		}
	}
}

func TestOnboardKeepsExistingProfile(t *testing.T) {
	u := User{}
	u.Onboard("c1")
	if u.CategoryID != "c1" || u.OriginalCategoryID != "c1" {
		t.Fatalf("got %+v", u)
	}
	u.CategoryID = "viewing-someone"
	u.Onboard("c2")
	if u.OriginalCategoryID != "c1" || u.CategoryID != "viewing-someone" {
		t.Fatalf("onboarding overwrote a profile: %+v", u)
	}
}

func TestNewGoogleSignUpTrustsOnlyAVerifiedTokenEmail(t *testing.T) {
	tests := []struct {
		name      string
		caller    Caller
		userName  string
		wantErr   error
		wantEmail string
		wantName  string
	}{
		{"verified email, name defaults", Caller{UID: "u", Email: "Gina@Example.com", EmailVerified: true}, "",
			nil, "gina@example.com", "gina"},
		{"verified email, given name", Caller{UID: "u", Email: "g@example.com", EmailVerified: true}, " Gina ",
			nil, "g@example.com", "Gina"},
		{"no email in the token", Caller{UID: "u"}, "Gina", ErrEmailNotVerified, "", ""},
		{"email not verified", Caller{UID: "u", Email: "g@example.com"}, "Gina", ErrEmailNotVerified, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewGoogleSignUp(tt.caller, tt.userName)
			if !errors.Is(err, tt.wantErr) || g.Email != tt.wantEmail || g.Name != tt.wantName {
				t.Fatalf("got %+v, %v; want %q %q %v", g, err, tt.wantEmail, tt.wantName, tt.wantErr)
			}
		})
	}
	if _, err := NewGoogleSignUp(Caller{UID: "u", Email: "g@example.com", EmailVerified: true}, strings.Repeat("n", 300)); err == nil {
		t.Fatal("a 300-character name was accepted")
	}
}
