package domain

import (
	"errors"
	"strings"
	"testing"
	"time"
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

func TestDigestRequestsAtMostOncePerMinute(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	var c Category
	for _, step := range []struct {
		at   time.Duration
		want error
	}{
		{0, nil},
		{59 * time.Second, ErrDigestTooSoon},
		{60 * time.Second, nil},
		{60*time.Second + time.Millisecond, ErrDigestTooSoon},
		{3 * time.Minute, nil},
	} {
		if err := c.RequestDigest(t0.Add(step.at)); !errors.Is(err, step.want) {
			t.Fatalf("at +%v: %v, want %v", step.at, err, step.want)
		}
	}
	if !c.LastDigestRequestedAt.Equal(t0.Add(3 * time.Minute)) {
		t.Fatalf("last request %v", c.LastDigestRequestedAt)
	}
}

func TestAnnouncedChange(t *testing.T) {
	t.Parallel()
	base := Category{ID: "c", OwnerID: "u", Name: "Clay", SiteURL: "https://a.example/"}
	for name, change := range map[string]func(*Category){
		"name":            func(c *Category) { c.Name = "Clay Co" },
		"site":            func(c *Category) { c.SiteURL = "" },
		"weekly email":    func(c *Category) { c.DisableWeeklyEmail = true },
		"business report": func(c *Category) { c.DisableBusinessReport = true },
	} {
		after := base
		change(&after)
		if !AnnouncedChange(base, after) {
			t.Errorf("%s: not announced", name)
		}
	}
	quiet := base
	quiet.AdditionalInfo, quiet.LastDigestRequestedAt = "summary", time.Now()
	if AnnouncedChange(base, quiet) {
		t.Error("a summary or a digest request was announced")
	}
}
