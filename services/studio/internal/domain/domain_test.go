package domain_test

import (
	"errors"
	"image/color"
	"math"
	"slices"
	"testing"
	"time"

	"uplift.dev/studio/internal/domain"
)

func TestEntitlementFor(t *testing.T) {
	free := domain.EntitlementFor("free")
	if free.Paid || free.DownloadsPerMonth != 3 || len(free.Beta) != 0 || free.HasBeta(domain.BetaHoleRecovery) {
		t.Errorf("free: %+v", free)
	}
	if domain.EntitlementFor("").Tier != "free" {
		t.Error("no tier is the free tier")
	}
	for _, tier := range []string{"pro", "enterprise-manual"} {
		e := domain.EntitlementFor(tier)
		if !e.Paid || e.DownloadsPerMonth != -1 || !e.HasBeta(domain.BetaHoleRecovery) {
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

func TestToolRunLimits(t *testing.T) {
	free, pro := domain.EntitlementFor("free"), domain.EntitlementFor("pro")
	for _, tc := range []struct {
		e          domain.Entitlement
		used, open int
		refused    bool
	}{
		{free, 0, 0, false},
		{free, domain.FreeJobsPerMonth - 1, 0, false},
		{free, domain.FreeJobsPerMonth, 0, true},
		{pro, 10_000, 0, false},
		{pro, 0, domain.MaxOpenJobs - 1, false},
		{pro, 0, domain.MaxOpenJobs, true},
		{free, 0, domain.MaxOpenJobs, true},
	} {
		err := tc.e.CheckJob(tc.used, tc.open)
		var le *domain.LimitError
		if (err != nil) != tc.refused || (err != nil && !errors.As(err, &le)) {
			t.Errorf("%s used %d open %d: %v", tc.e.Tier, tc.used, tc.open, err)
		}
	}
	if free.JobsLeft(28) != 2 || free.JobsLeft(40) != 0 || pro.JobsLeft(5) != -1 {
		t.Error("jobs left")
	}
}

func TestParseStrokes(t *testing.T) {
	ok := func(modes []string, radii []float32, pts [][]float32) error {
		_, err := domain.ParseStrokes(modes, radii, pts)
		return err
	}
	if err := ok([]string{"keep", "remove"}, []float32{0.05, 0.25}, [][]float32{{0.1, 0.2}, {0, 0, 1, 1}}); err != nil {
		t.Fatal(err)
	}
	s, _ := domain.ParseStrokes([]string{"keep"}, []float32{0.1}, [][]float32{{0.25, 0.75, 0.5, 0.5}})
	if !s[0].Keep || len(s[0].Points) != 2 || s[0].Points[0] != [2]float64{0.25, 0.75} {
		t.Fatalf("parsed %+v", s)
	}
	nan := float32(math.NaN())
	for name, tc := range map[string]struct {
		modes []string
		radii []float32
		pts   [][]float32
	}{
		"none":       {nil, nil, nil},
		"mode":       {[]string{"erase"}, []float32{0.1}, [][]float32{{0.5, 0.5}}},
		"radius 0":   {[]string{"keep"}, []float32{0}, [][]float32{{0.5, 0.5}}},
		"radius big": {[]string{"keep"}, []float32{0.3}, [][]float32{{0.5, 0.5}}},
		"radius NaN": {[]string{"keep"}, []float32{nan}, [][]float32{{0.5, 0.5}}},
		"odd":        {[]string{"keep"}, []float32{0.1}, [][]float32{{0.5, 0.5, 0.1}}},
		"empty":      {[]string{"keep"}, []float32{0.1}, [][]float32{{}}},
		"off photo":  {[]string{"keep"}, []float32{0.1}, [][]float32{{0.5, 2}}},
		"NaN point":  {[]string{"keep"}, []float32{0.1}, [][]float32{{nan, 0.5}}},
		"too many":   {make([]string, domain.MaxStrokes+1), nil, nil},
		"too long":   {[]string{"keep"}, []float32{0.1}, [][]float32{make([]float32, 2*domain.MaxStrokePoints+2)}},
	} {
		var ve *domain.ValidationError
		if err := ok(tc.modes, tc.radii, tc.pts); !errors.As(err, &ve) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
