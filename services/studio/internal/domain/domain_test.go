package domain_test

import (
	"errors"
	"image/color"
	"slices"
	"testing"
	"time"

	"uplift.dev/studio/internal/domain"
)

func TestEntitlementFor(t *testing.T) {
	free := domain.EntitlementFor("free")
	if free.Paid || free.DownloadsPerMonth != 3 || len(free.Beta) != 0 {
		t.Errorf("free: %+v", free)
	}
	if domain.EntitlementFor("").Tier != "free" {
		t.Error("no tier is the free tier")
	}
	for _, tier := range []string{"pro", "enterprise-manual"} {
		e := domain.EntitlementFor(tier)
		if !e.Paid || e.DownloadsPerMonth != -1 || !e.HasBeta(domain.BetaAdCreator) || !e.HasBeta(domain.BetaCompetitorComparison) {
			t.Errorf("%s: %+v", tier, e)
		}
	}
}

func TestCheckDownload(t *testing.T) {
	free, pro := domain.EntitlementFor("free"), domain.EntitlementFor("pro")
	for used := 0; used < 3; used++ {
		if err := free.CheckDownload(used, false); err != nil {
			t.Errorf("free, %d used: %v", used, err)
		}
	}
	var le *domain.LimitError
	if err := free.CheckDownload(3, false); !errors.As(err, &le) || le.Message == "" {
		t.Errorf("free, 3 used: %v", err)
	}
	if err := free.CheckDownload(3, true); err != nil {
		t.Errorf("downloading the same result again must not count: %v", err)
	}
	if err := pro.CheckDownload(1000, false); err != nil {
		t.Errorf("pro: %v", err)
	}
	if free.DownloadsLeft(1) != 2 || free.DownloadsLeft(7) != 0 || pro.DownloadsLeft(7) != -1 {
		t.Error("downloads left")
	}
}

func TestMonthOfIsUTCCalendarMonth(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	tests := []struct {
		at   time.Time
		want string
	}{
		{time.Date(2026, 11, 30, 23, 59, 59, 0, time.UTC), "2026-11"},
		{time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), "2026-12"},
		// 30 Nov 20:00 in New York is already 1 Dec in UTC
		{time.Date(2026, 11, 30, 20, 0, 0, 0, ny), "2026-12"},
		// 1 Dec 08:00 in Tokyo is still 30 Nov in UTC
		{time.Date(2026, 12, 1, 8, 0, 0, 0, tokyo), "2026-11"},
		// the night the clocks go back in New York changes nothing
		{time.Date(2026, 11, 1, 1, 30, 0, 0, ny), "2026-11"},
		{time.Date(2026, 12, 31, 23, 0, 0, 0, ny), "2027-01"},
	}
	for _, tc := range tests {
		if got := domain.MonthOf(tc.at); got != tc.want {
			t.Errorf("MonthOf(%v) = %s, want %s", tc.at, got, tc.want)
		}
	}
}

func TestParseBackdrop(t *testing.T) {
	for _, tc := range []struct {
		kind, hex string
		want      color.NRGBA
		ok        bool
	}{
		{"", "", domain.White, true},
		{"white", "", domain.White, true},
		{"grey", "", domain.LightGrey, true},
		{"color", "#1A2b3c", color.NRGBA{0x1a, 0x2b, 0x3c, 255}, true},
		{"color", "1a2b3c", color.NRGBA{}, false},
		{"color", "#12345g", color.NRGBA{}, false},
		{"plaid", "", color.NRGBA{}, false},
	} {
		b, err := domain.ParseBackdrop(tc.kind, tc.hex)
		if (err == nil) != tc.ok || (tc.ok && b.Color != tc.want) {
			t.Errorf("ParseBackdrop(%q, %q) = %v, %v", tc.kind, tc.hex, b, err)
		}
	}
}

func TestPresetsAreTheChannels(t *testing.T) {
	want := map[string][2]int{"shopify": {2048, 2048}, "instagram-square": {1080, 1080}, "instagram-portrait": {1080, 1350},
		"story": {1080, 1920}, "feed": {1200, 628}, "amazon": {2048, 2048}}
	for _, p := range domain.Presets {
		if want[p.ID] != [2]int{p.Width, p.Height} {
			t.Errorf("%s: %dx%d", p.ID, p.Width, p.Height)
		}
		if p.ID == "amazon" && (!p.PureWhite || p.Fill != 0.85) {
			t.Errorf("amazon: %+v", p)
		}
		// every preset width is one of the spec's image widths
		if !slices.Contains(domain.ImageWidths, p.Width) {
			t.Errorf("%s: width %d is not a spec width", p.ID, p.Width)
		}
	}
	if len(domain.Presets) != len(want) {
		t.Errorf("%d presets", len(domain.Presets))
	}
	if _, err := domain.ValidateStudioSize(1000); err == nil {
		t.Error("1000 is not a spec width")
	}
	if s, _ := domain.ValidateStudioSize(0); s != 2048 {
		t.Error("default size")
	}
}
