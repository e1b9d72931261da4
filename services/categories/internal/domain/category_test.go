package domain

import (
	"errors"
	"strings"
	"testing"
)

func TestNormalizeLabel(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"  Mugs & Co  ", "Mugs & Co", true},
		{strings.Repeat("é", 100), strings.Repeat("é", 100), true},
		{strings.Repeat("é", 101), "", false},
		{"   ", "", false},
		{"bad\x00name", "", false},
	}
	for _, tt := range tests {
		got, err := NormalizeLabel(tt.in)
		var ve *ValidationError
		if tt.ok != (err == nil) || got != tt.want || (err != nil && !errors.As(err, &ve)) {
			t.Errorf("NormalizeLabel(%.12q) = %q, %v", tt.in, got, err)
		}
	}
}

func TestCallerCanAccess(t *testing.T) {
	c := Category{OwnerID: "u1"}
	if !(Caller{UID: "u1"}).CanAccess(c) || !(Caller{UID: "x", Uplifter: true}).CanAccess(c) ||
		(Caller{UID: "u2"}).CanAccess(c) || (Caller{}).CanAccess(Category{}) {
		t.Fatal("access rules broken")
	}
}

func TestSetSite(t *testing.T) {
	c := Category{SiteURL: "https://a.example/", AdditionalInfo: "sells mugs"}
	if c.SetSite("https://a.example/") {
		t.Fatal("same site reported as changed")
	}
	if !c.SetSite("") || c.AdditionalInfo != "" {
		t.Fatalf("clearing keeps the old summary: %+v", c)
	}
}

func TestWithPreviousContentOnlyForTheSameSite(t *testing.T) {
	prev := &Report{Status: StatusReady, SiteURL: "https://a/", Review: &Review{Score: 50}, Summary: "s"}
	gen := Report{Status: StatusGenerating, SiteURL: "https://a/"}
	if got := gen.WithPreviousContent(prev); got.Review == nil || got.Status != StatusGenerating {
		t.Fatalf("%+v", got)
	}
	other := Report{Status: StatusGenerating, SiteURL: "https://b/"}
	if got := other.WithPreviousContent(prev); got.Review != nil {
		t.Fatalf("another site's review shown: %+v", got)
	}
}
