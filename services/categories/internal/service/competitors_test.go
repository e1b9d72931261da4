package service_test

import (
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"

	"uplift.dev/categories/internal/domain"
)

// TestCompetitorsThroughTheService: competitor websites are saved with the
// profile on real PostgreSQL, a bad list is a 400 naming the field, and the
// review the owner reads puts each competitor beside the store.
func TestCompetitorsThroughTheService(t *testing.T) {
	t.Parallel()
	h := start(t)
	const rival = "https://rival-store.test/"
	better := sampleAnalysis()
	better.Review.Score = 90
	better.Review.Checks = []domain.CheckResult{{Check: "meta-description", Group: domain.GroupSearch, Weight: 6, Earned: 6}}
	h.analyzer.mu.Lock()
	h.analyzer.sites[rival] = better
	h.analyzer.mu.Unlock()
	cat, tok := h.owner(t)
	ctx := as(tok)

	_, err := h.client.UpdateContentGenerationParams(ctx, &categoriesv1.UpdateContentGenerationParamsRequest{
		CategoryId: cat, SiteUrl: proto.String(goodSite),
		Competitors: &categoriesv1.CompetitorUrls{Urls: []string{"a.test", "b.test", "c.test", "d.test"}},
	})
	st := status.Convert(err)
	if st.Code() != codes.InvalidArgument || !hasField(st, domain.CompetitorsField, domain.TooManyCompetitorsMsg) {
		t.Fatalf("four competitors: %v %v", st.Code(), st.Details())
	}
	res, err := h.client.UpdateContentGenerationParams(ctx, &categoriesv1.UpdateContentGenerationParamsRequest{
		CategoryId: cat, SiteUrl: proto.String(goodSite),
		Competitors: &categoriesv1.CompetitorUrls{Urls: []string{"rival-store.test", "https://gone.test/"}},
	})
	if err != nil || len(res.GetCompetitorUrls()) != 2 || res.GetCompetitorUrls()[0] != rival {
		t.Fatalf("saved %v, %v", res.GetCompetitorUrls(), err)
	}
	got, err := h.client.GetContentGenerationParams(ctx, &categoriesv1.GetContentGenerationParamsRequest{CategoryId: cat})
	if err != nil || len(got.GetCompetitorUrls()) != 2 {
		t.Fatalf("read back %v, %v", got.GetCompetitorUrls(), err)
	}
	var rep *categoriesv1.Report
	eventually(t, func() bool {
		r, err := h.client.GetCurrentReport(ctx, &categoriesv1.GetCurrentReportRequest{CategoryId: cat})
		rep = r.GetReport()
		return err == nil && rep.GetStatus() == categoriesv1.ReportStatus_REPORT_STATUS_READY && len(rep.GetCompetitors()) == 2
	})
	c := rep.GetCompetitors()
	if !c[0].GetReviewed() || c[0].GetScore() != 90 || c[0].GetBand() != "high" || len(c[0].GetWins()) != 1 || c[0].GetWins()[0] != "search" {
		t.Errorf("rival %v", c[0])
	}
	if c[1].GetReviewed() || c[1].GetErrorMessage() != domain.CompetitorNotReadMessage || c[1].GetBand() != "" {
		t.Errorf("unreadable competitor %v", c[1])
	}
}

func hasField(st *status.Status, field, msg string) bool {
	for _, d := range st.Details() {
		if br, ok := d.(*errdetails.BadRequest); ok {
			for _, v := range br.GetFieldViolations() {
				if v.GetField() == field && v.GetDescription() == msg {
					return true
				}
			}
		}
	}
	return false
}
