package service_test

import (
	"slices"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"
	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
)

// storeSignals is what the stores service publishes for cat after an
// import: as of yesterday, a best seller, a product that stopped selling
// and an unusual day.
func storeSignals(cat string) *eventsv1.StoreSignalsUpdated {
	return &eventsv1.StoreSignalsUpdated{
		CategoryId: cat, Currency: "USD", CurrencyDecimals: 2,
		AsOf:       time.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly),
		BestSeller: &eventsv1.StoreSignalsUpdated_BestSeller{Title: "Trail Mug", NetSalesMinor: 9000, Quantity: 6},
		FallingProduct: &eventsv1.StoreSignalsUpdated_FallingProduct{Title: "Camp Stove",
			NetSalesBeforeMinor: 53400, NetSalesAfterMinor: 0, FallPercent: 100},
		UnusualHeadline: "Orders fell 45 % against your 7-day average; sessions held steady, so conversion dropped — check checkout.",
		OccurTime:       timestamppb.Now(),
	}
}

func insightTexts(in []*categoriesv1.Insight) []string {
	out := []string{}
	for _, i := range in {
		out = append(out, i.GetText())
	}
	return out
}

func ideaTitles(in []*categoriesv1.Idea) []string {
	out := []string{}
	for _, i := range in {
		out = append(out, i.GetTitle())
	}
	return out
}

// TestStoreSignalsBecomeInsightsAndIdeas publishes StoreSignalsUpdated as
// the stores service's relay would and reads the result through the gRPC
// API: the store's insights before the website review's, two store ideas
// before the review's that open by id, a replay that changes nothing, and
// an invalidation that issues the store's ideas again.
func TestStoreSignalsBecomeInsightsAndIdeas(t *testing.T) {
	t.Parallel()
	h := start(t)
	cat, tok := h.owner(t)
	ctx := as(tok)
	h.reviewed(t, cat, tok)

	ev := storeSignals(cat)
	h.publish(t, events.SubjectStoreSignalsUpdated, ev)
	wantInsights := []string{
		"Your best seller this week: Trail Mug, $90.00 in net sales.",
		"Sales of Camp Stove fell 100 % over the last two weeks.",
		"Orders fell 45 % against your 7-day average; sessions held steady, so conversion dropped — check checkout.",
		"Your best sellers are gift sets.",
	}
	var got *categoriesv1.GetInsightsResponse
	eventually(t, func() bool {
		var err error
		got, err = h.client.GetInsights(ctx, &categoriesv1.GetInsightsRequest{CategoryId: cat})
		return err == nil && len(got.GetInsights()) == 4
	})
	if !slices.Equal(insightTexts(got.GetInsights()), wantInsights) {
		t.Fatalf("insights =\n %q\nwant\n %q", insightTexts(got.GetInsights()), wantInsights)
	}
	if e := got.GetInsights()[0].GetEvidence(); e == "" || got.GetInsights()[0].GetId() == "" {
		t.Errorf("the best seller's insight has no evidence or id: %v", got.GetInsights()[0])
	}

	ideas, err := h.client.ListRecentIdeas(ctx, &categoriesv1.ListRecentIdeasRequest{CategoryId: cat})
	wantIdeas := []string{"Feature your best seller: Trail Mug", "Bring back Camp Stove",
		"Winter mug drop", "Gift sets for teachers", "Latte art contest", "Restock alert"}
	if err != nil || !slices.Equal(ideaTitles(ideas.GetIdeas()), wantIdeas) {
		t.Fatalf("ideas = %q, %v\nwant %q", ideaTitles(ideas.GetIdeas()), err, wantIdeas)
	}
	best := ideas.GetIdeas()[0]
	idea, err := h.client.GetIdea(ctx, &categoriesv1.GetIdeaRequest{CategoryId: cat, IdeaId: best.GetId()})
	if err != nil || idea.GetIdea().GetSubjectLine() != "Our customers' favourite: Trail Mug" ||
		!slices.Equal(idea.GetIdea().GetProducts(), []string{"Trail Mug"}) || idea.GetIdea().GetCreateTime() == nil {
		t.Fatalf("store idea by id: %v %v", idea, err)
	}
	// The website report itself is the review's alone.
	rep, err := h.client.GetCurrentReport(ctx, &categoriesv1.GetCurrentReportRequest{CategoryId: cat})
	if err != nil || len(rep.GetReport().GetInsights()) != 1 || rep.GetReport().GetIdeas()[0].GetTitle() != "Winter mug drop" {
		t.Fatalf("report: %v %v", rep, err)
	}

	// The same signals again (a second publication) change nothing.
	h.publish(t, events.SubjectStoreSignalsUpdated, ev)
	eventually(t, func() bool {
		return h.count(t, `SELECT count(*) FROM processed_messages WHERE consumer = 'categories-store-signals'`) == 2
	})
	again, _ := h.client.ListRecentIdeas(ctx, &categoriesv1.ListRecentIdeasRequest{CategoryId: cat})
	if len(again.GetIdeas()) != 6 || again.GetIdeas()[0].GetId() != best.GetId() {
		t.Fatalf("ideas changed on a replay: %v", again.GetIdeas())
	}

	// Invalidating: every idea leaves the list; the store's come back at
	// once under new ids, the website's with the next review.
	if _, err := h.client.InvalidateCampaignIdeas(ctx, &categoriesv1.InvalidateCampaignIdeasRequest{CategoryId: cat}); err != nil {
		t.Fatal(err)
	}
	eventually(t, func() bool {
		fresh, err := h.client.ListRecentIdeas(ctx, &categoriesv1.ListRecentIdeasRequest{CategoryId: cat})
		return err == nil && slices.Equal(ideaTitles(fresh.GetIdeas()), wantIdeas) &&
			fresh.GetIdeas()[0].GetId() != best.GetId() && fresh.GetIdeas()[2].GetId() != ideas.GetIdeas()[2].GetId()
	})
	if _, err := h.client.GetIdea(ctx, &categoriesv1.GetIdeaRequest{CategoryId: cat, IdeaId: best.GetId()}); err != nil {
		t.Fatalf("the old store idea no longer opens: %v", err)
	}

	// The next day's signals name a new best seller and no fall: the
	// insights and store ideas follow.
	next := storeSignals(cat)
	next.AsOf = time.Now().UTC().Format(time.DateOnly)
	next.BestSeller = &eventsv1.StoreSignalsUpdated_BestSeller{Title: "Camp Stove", NetSalesMinor: 17800, Quantity: 2}
	next.FallingProduct, next.UnusualHeadline = nil, ""
	h.publish(t, events.SubjectStoreSignalsUpdated, next)
	eventually(t, func() bool {
		got, err := h.client.GetInsights(ctx, &categoriesv1.GetInsightsRequest{CategoryId: cat})
		return err == nil && slices.Equal(insightTexts(got.GetInsights()),
			[]string{"Your best seller this week: Camp Stove, $178.00 in net sales.", "Your best sellers are gift sets."})
	})
	fresh, _ := h.client.ListRecentIdeas(ctx, &categoriesv1.ListRecentIdeasRequest{CategoryId: cat})
	if !slices.Equal(ideaTitles(fresh.GetIdeas())[:2], []string{"Feature your best seller: Camp Stove", "Winter mug drop"}) {
		t.Fatalf("ideas after the next day: %q", ideaTitles(fresh.GetIdeas()))
	}
}

// TestStoreSignalsWithoutAWebsite: a store that imported its orders but set
// no website still gets the store's insights and ideas.
func TestStoreSignalsWithoutAWebsite(t *testing.T) {
	t.Parallel()
	h := start(t)
	cat, tok := h.owner(t)
	ctx := as(tok)
	h.publish(t, events.SubjectStoreSignalsUpdated, storeSignals(cat))
	eventually(t, func() bool {
		ideas, err := h.client.ListRecentIdeas(ctx, &categoriesv1.ListRecentIdeasRequest{CategoryId: cat})
		return err == nil && len(ideas.GetIdeas()) == 2
	})
	got, err := h.client.GetInsights(ctx, &categoriesv1.GetInsightsRequest{CategoryId: cat})
	if err != nil || len(got.GetInsights()) != 3 {
		t.Fatalf("insights without a website: %v %v", got, err)
	}
}
