package grpcport

import (
	"testing"

	"uplift.dev/categories/internal/domain"
)

// TestEventStatusNamesAreTheAPIs: report_updated events name a status as
// the domain spells it (EventName), the API as its enum; a listener that
// reads both must see the same word for each status.
func TestEventStatusNamesAreTheAPIs(t *testing.T) {
	for _, s := range []domain.ReportStatus{domain.StatusGenerating, domain.StatusReady, domain.StatusFailed, domain.StatusNoWebsite, "SOMETHING_ELSE"} {
		if got, want := s.EventName(), toProtoStatus(s).String(); got != want {
			t.Errorf("%q: event says %s, API says %s", s, got, want)
		}
	}
}
