package gateway

import (
	"context"
	"fmt"
	"testing"

	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"
)

// UpdateContentGenerationParams answers, in additional_info, which optional
// fields reached the service and with what, so the test sees absent and
// null apart.
func (fakeCategories) UpdateContentGenerationParams(_ context.Context, r *categoriesv1.UpdateContentGenerationParamsRequest) (*categoriesv1.UpdateContentGenerationParamsResponse, error) {
	show := func(present bool, v any) string {
		if !present {
			return "absent"
		}
		return fmt.Sprintf("%q", fmt.Sprint(v))
	}
	return &categoriesv1.UpdateContentGenerationParamsResponse{AdditionalInfo: fmt.Sprintf("site %s, weekly %s, zone %s, competitors %s",
		show(r.SiteUrl != nil, r.GetSiteUrl()), show(r.DisableWeeklyEmail != nil, r.GetDisableWeeklyEmail()),
		show(r.TimeZone != nil, r.GetTimeZone()), show(r.Competitors != nil, r.GetCompetitors().GetUrls()))}, nil
}

// TestAPatchTellsNullFromAbsent: the spec's client sends an empty website as
// null, and clients send only the fields they change. A field left out must
// reach the service unset (it keeps its value), and a null must reach it
// set, to empty (it clears); protojson alone reads both as unset.
func TestAPatchTellsNullFromAbsent(t *testing.T) {
	t.Parallel()
	url := setupEventsWith(t, "", nil) + "/internal/categories/c1/business-data/contentGenerationParams"
	for body, want := range map[string]string{
		`{"disableWeeklyEmail":true}`:                  `site absent, weekly "true", zone absent, competitors absent`,
		`{"siteUrl":null,"disableWeeklyEmail":false}`:  `site "", weekly "false", zone absent, competitors absent`,
		`{"siteUrl":"shop.example"}`:                   `site "shop.example", weekly absent, zone absent, competitors absent`,
		`{"site_url":null}`:                            `site "", weekly absent, zone absent, competitors absent`,
		`{"timeZone":null, "disableWeeklyEmail":null}`: `site absent, weekly "false", zone "", competitors absent`,
		`{"competitors":{"urls":[]}}`:                  `site absent, weekly absent, zone absent, competitors "[]"`,
		`{"competitors":null,"unknown":null}`:          `site absent, weekly absent, zone absent, competitors absent`,
		`{}`:                                           `site absent, weekly absent, zone absent, competitors absent`,
		``:                                             `site absent, weekly absent, zone absent, competitors absent`,
	} {
		code, _, out := do(t, "PATCH", url, body, map[string]string{"Authorization": "Bearer owner"})
		if code != 200 || out["additionalInfo"] != want {
			t.Errorf("PATCH %s: %d %v\nwant the service to get %s", body, code, out, want)
		}
	}
	// A body that is not JSON for the call is still the client's mistake.
	if code, _, out := do(t, "PATCH", url, `{"siteUrl":null,`, nil); code != 400 {
		t.Errorf("broken JSON: %d %v", code, out)
	}
}
