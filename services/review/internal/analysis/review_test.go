package analysis

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"uplift.dev/review/domain"
	"uplift.dev/review/internal/analysis/review"
	"uplift.dev/review/internal/analysis/write"
)

// analyze runs a full analysis of a test store.
func analyze(t *testing.T, a *Analyzer, u string, prev *domain.Review) domain.Analysis {
	t.Helper()
	res, err := a.Analyze(context.Background(), u, prev, nil)
	if err != nil {
		t.Fatalf("Analyze(%s): %v", u, err)
	}
	return res
}

// checkAccounting asserts the score is the sum of earned points and each
// check's findings account for exactly the points it lost.
func checkAccounting(t *testing.T, rv domain.Review) {
	t.Helper()
	total, lost := 0, map[string]int{}
	for _, f := range rv.Findings {
		lost[f.Check] += f.PointsLost
		if f.URL == "" || f.Element == "" || f.Why == "" || f.Fix == "" || f.ID == "" {
			t.Errorf("finding %s lacks url/element/why/fix/id: %+v", f.Check, f)
		}
		if f.PointsLost <= 0 && f.State != domain.StateFixed {
			t.Errorf("finding %s costs %d points; zero-point ones belong in the notes", f.Title, f.PointsLost)
		}
	}
	for _, n := range rv.Notes {
		if n.PointsLost != 0 {
			t.Errorf("note %s costs %d points", n.Title, n.PointsLost)
		}
	}
	// One row per issue: no two findings (or notes) of a check read the
	// same, and an issue found in several places lists each once.
	seen := map[string]bool{}
	for _, f := range append(append([]domain.Finding{}, rv.Findings...), rv.Notes...) {
		if k := f.Check + "\x00" + f.Title; seen[k] && f.State != domain.StateFixed {
			t.Errorf("two findings of %s read %q", f.Check, f.Title)
		} else {
			seen[k] = true
		}
		places := map[string]bool{}
		for _, p := range f.Places {
			if places[p.URL+"\x00"+p.Element] {
				t.Errorf("finding %q lists %s %s twice", f.Title, p.URL, p.Element)
			}
			places[p.URL+"\x00"+p.Element] = true
		}
		if len(f.Places) == 1 || (len(f.Places) > 1 && (f.Places[0].URL != f.URL || f.Places[0].Element != f.Element)) {
			t.Errorf("finding %q: places %+v do not start at its own %s %s", f.Title, f.Places, f.URL, f.Element)
		}
	}
	if len(rv.Checks) != len(review.Checks) {
		t.Fatalf("%d checks, want %d", len(rv.Checks), len(review.Checks))
	}
	for i, c := range rv.Checks {
		if c.Check != review.Checks[i].ID || c.Weight != review.Checks[i].Points {
			t.Errorf("check %d = %s/%d, want %s/%d", i, c.Check, c.Weight, review.Checks[i].ID, review.Checks[i].Points)
		}
		if c.Weight-c.Earned != lost[c.Check] {
			t.Errorf("check %s lost %d points but its findings account for %d", c.Check, c.Weight-c.Earned, lost[c.Check])
		}
		total += c.Earned
	}
	if total != rv.Score {
		t.Errorf("score %d, sum of earned %d", rv.Score, total)
	}
}

func findings(rv domain.Review, check string) []domain.Finding {
	var out []domain.Finding
	for _, f := range rv.Findings {
		if f.Check == check {
			out = append(out, f)
		}
	}
	return out
}

func lostBy(rv domain.Review) map[string]int {
	out := map[string]int{}
	for _, c := range rv.Checks {
		if c.Earned != c.Weight {
			out[c.Check] = c.Weight - c.Earned
		}
	}
	return out
}

func ideaProducts(ideas []domain.Idea) []string {
	var out []string
	for _, i := range ideas {
		out = append(out, i.Products...)
	}
	return out
}

func checkIdeas(t *testing.T, ideas []domain.Idea, real []string) {
	t.Helper()
	if len(ideas) < 3 || len(ideas) > 5 {
		t.Fatalf("%d ideas, want 3 to 5", len(ideas))
	}
	for _, i := range ideas {
		if i.Title == "" || i.WhyNow == "" || i.SubjectLine == "" || i.Body == "" || i.Timing == "" || i.ID == "" {
			t.Errorf("idea missing a field: %+v", i)
		}
		if !slices.Contains([]string{write.ChannelEmail, write.ChannelSocial, write.ChannelAds, write.ChannelOnsite}, i.Channel) {
			t.Errorf("idea %q has channel %q", i.Title, i.Channel)
		}
		for _, p := range i.Products {
			if !slices.Contains(real, p) {
				t.Errorf("idea %q features %q, which the store does not sell", i.Title, p)
			}
		}
	}
	if len(ideaProducts(ideas)) == 0 {
		t.Error("no idea features a product")
	}
}

func TestGoodStoreScoresFullMarks(t *testing.T) {
	srv := goodStore(t)
	res := analyze(t, newTestAnalyzer(t, srv, Options{}), srv.URL, nil)
	rv := res.Review
	checkAccounting(t, rv)
	if rv.Score != 100 || len(rv.Findings) != 0 {
		for _, f := range rv.Findings {
			t.Logf("finding: %s %s %s %s", f.Check, f.Title, f.URL, f.Element)
		}
		t.Fatalf("score %d with %d findings, want 100 and none", rv.Score, len(rv.Findings))
	}
	if !strings.HasPrefix(rv.SiteURL, "https://") {
		t.Errorf("site URL %s", rv.SiteURL)
	}
	for _, want := range []string{"Juniper Candle Co.", "Cedar & Smoke", "$24", "$32"} {
		if !strings.Contains(res.Summary, want) {
			t.Errorf("summary lacks %q: %s", want, res.Summary)
		}
	}
	checkIdeas(t, res.Ideas, []string{"Cedar & Smoke", "Fig Leaf", "Sea Salt"})
	if domain.BandOf(rv.Score) != domain.BandHigh {
		t.Errorf("band %s", domain.BandOf(rv.Score))
	}
}

func TestPoorStoreLosesTheRightPoints(t *testing.T) {
	srv := poorStore(t)
	res := analyze(t, newTestAnalyzer(t, srv, Options{}), srv.URL, nil)
	rv := res.Review
	checkAccounting(t, rv)
	// Five pages read (home, contact, three products); each expectation
	// follows from the weights: ratio checks lose ceil(weight*failed/total).
	want := map[string]int{
		review.CheckTitleLength:    2, // "Home" is far too short: graded by the worst page, the whole 2
		review.CheckMetaDesc:       4, // 5 of 5 pages
		review.CheckHeadings:       3, // home has no h1, products have two: ceil(3*4/5)
		review.CheckImageAlt:       3, // 5 of 5 images
		review.CheckStructuredData: 4, // no Organization (2) and 3 of 3 product pages (2)
		review.CheckSitemapRobots:  2,
		review.CheckOpenGraph:      2,
		review.CheckImageWeight:    2, // 1 of 2 measured images is 900 KB: ceil(4*1/2)
		review.CheckRenderBlocking: 5, // two blocking scripts (2 each) and five stylesheets (2), capped
		review.CheckCompression:    3,
		review.CheckCaching:        3,
		review.CheckViewport:       7,
		review.CheckHTTPS:          8,
		review.CheckReturns:        3,
		review.CheckShipping:       3,
		review.CheckPrivacy:        3,
		review.CheckAddToCart:      6, // no cart button (4), no shop-now link (2)
		review.CheckReviews:        4,
		review.CheckEmailCapture:   5, // the contact form (textarea) is not a sign-up
	}
	if got := lostBy(rv); !reflect.DeepEqual(got, want) {
		t.Errorf("lost points\n got %v\nwant %v", got, want)
	}
	if rv.Score != 28 {
		t.Errorf("score %d, want 28", rv.Score)
	}
	// Lighthouse does not require a canonical link: its absence is a note.
	var canonicalNote bool
	for _, n := range rv.Notes {
		canonicalNote = canonicalNote || (n.Check == review.CheckCanonical && n.Title == "5 pages have no canonical link" && len(n.Places) == 5)
	}
	if !canonicalNote {
		t.Error("missing canonical links should be noted")
	}
	if domain.BandOf(rv.Score) != domain.BandLow {
		t.Errorf("band %s, want low", domain.BandOf(rv.Score))
	}
	if f := findings(rv, review.CheckContact); len(f) != 0 {
		t.Errorf("contact page is linked, got finding %+v", f)
	}
	if f := findings(rv, review.CheckPageWeight); len(f) != 0 {
		t.Errorf("small HTML, got page-weight finding %+v", f)
	}
	// One finding for the issue, each page inside it with a description
	// of its own.
	home := srv.URL + "/"
	meta := findings(rv, review.CheckMetaDesc)
	if len(meta) != 1 || meta[0].Title != "5 pages have no meta description" || len(meta[0].Places) != 5 || meta[0].Places[0].URL != home {
		t.Fatalf("meta description findings: %+v", meta)
	}
	if fix := meta[0].Places[0].Fix; !strings.Contains(fix, `<meta name="description" content="`) || !strings.Contains(fix, "Bramble Honey") || !strings.Contains(fix, "Wildflower Honey 340g") {
		t.Errorf("home meta description should be drafted from the store's content: %q", fix)
	}
	var heavy bool
	for _, f := range findings(rv, review.CheckImageWeight) {
		heavy = heavy || strings.Contains(f.Element, "banner.jpg") && strings.Contains(f.Element, "900 KB")
	}
	if !heavy {
		t.Error("the 900 KB banner is not named")
	}
	if f := findings(rv, review.CheckTitleLength); len(f) != 1 || f[0].Element != "<title>Home</title>" || !strings.Contains(f[0].Fix, "Bramble Honey") {
		t.Errorf("title finding: %+v", f)
	}
	for _, want := range []string{"Bramble Honey", "Wildflower Honey 340g", "£12", "£45"} {
		if !strings.Contains(res.Summary, want) {
			t.Errorf("summary lacks %q: %s", want, res.Summary)
		}
	}
	checkIdeas(t, res.Ideas, []string{"Wildflower Honey 340g", "Heather Honey 340g", "Cut Honeycomb 400g"})
	if !strings.Contains(res.Ideas[0].Title, "Valentine's Day") {
		t.Errorf("first idea should be for Valentine's Day (25 days after the test clock): %q", res.Ideas[0].Title)
	}
	var welcome bool
	for _, i := range res.Ideas {
		welcome = welcome || (i.Channel == write.ChannelOnsite && strings.Contains(i.WhyNow, "no newsletter sign-up"))
	}
	if !welcome {
		t.Error("the missing sign-up should become a campaign idea")
	}
	var cheap bool
	for _, in := range res.Insights {
		cheap = cheap || (strings.Contains(in.Text, "cheapest product is £12") && strings.Contains(in.Evidence, "Wildflower Honey 340g"))
	}
	if !cheap {
		t.Errorf("no price insight with evidence: %+v", res.Insights)
	}
}

func TestShopifyStoreReadsTheCatalogue(t *testing.T) {
	srv := shopifyStore(t)
	res := analyze(t, newTestAnalyzer(t, srv, Options{}), srv.URL, nil)
	rv := res.Review
	checkAccounting(t, rv)
	want := map[string]int{review.CheckMetaDesc: 4, review.CheckStructuredData: 4, review.CheckOpenGraph: 2, review.CheckHTTPS: 8, review.CheckShipping: 3, review.CheckPrivacy: 3, review.CheckReviews: 4}
	if got := lostBy(rv); !reflect.DeepEqual(got, want) {
		t.Errorf("lost points\n got %v\nwant %v", got, want)
	}
	if rv.Score != 72 {
		t.Errorf("score %d, want 72", rv.Score)
	}
	if f := findings(rv, review.CheckShipping); len(f) != 1 || !strings.Contains(f[0].Fix, "/policies/shipping-policy") {
		t.Errorf("shipping finding should point at the existing page from the sitemap: %+v", f)
	}
	if f := findings(rv, review.CheckPrivacy); len(f) != 1 || !strings.Contains(f[0].Fix, "Settings → Policies") {
		t.Errorf("privacy finding should give the Shopify steps: %+v", f)
	}
	for _, want := range []string{"Hearth & Loom", "table linen", "£19", "£95", "Linen Apron"} {
		if !strings.Contains(res.Summary, want) {
			t.Errorf("summary lacks %q: %s", want, res.Summary)
		}
	}
	var desc, sold bool
	for _, in := range res.Insights {
		desc = desc || (in.Text == "2 of your 6 products have no description." && in.Evidence == "No description: Oven Mitt Pair; Napkin Set of 4.")
		sold = sold || (strings.Contains(in.Text, "1 of your 6 products is sold out") && strings.Contains(in.Evidence, "Linen Table Runner"))
	}
	if !desc || !sold {
		t.Errorf("catalogue insights missing: %+v", res.Insights)
	}
	real := []string{"Linen Apron", "Waffle Tea Towel Set", "Oven Mitt Pair", "Linen Table Runner", "Napkin Set of 4", "Heirloom Tablecloth"}
	checkIdeas(t, res.Ideas, real)
	if slices.Contains(ideaProducts(res.Ideas), "Linen Table Runner") {
		t.Error("a sold-out product is featured in an idea")
	}
	// GBP store: Mothering Sunday (15 Mar 2026, three weeks before Easter) is in the window.
	var mothers bool
	for _, i := range res.Ideas {
		mothers = mothers || strings.Contains(i.Title, "Mother's Day") && strings.Contains(i.WhyNow, "Sun Mar 15")
	}
	if !mothers {
		t.Errorf("no UK Mother's Day idea: %+v", res.Ideas)
	}
}

func TestSameSiteTwiceGivesTheSameReview(t *testing.T) {
	for name, mk := range map[string]func(*testing.T) string{
		"poor":    func(t *testing.T) string { return poorStore(t).URL },
		"shopify": func(t *testing.T) string { return shopifyStore(t).URL },
	} {
		t.Run(name, func(t *testing.T) {
			u := mk(t)
			a := newTestAnalyzer(t, nil, Options{})
			first, second := analyze(t, a, u, nil), analyze(t, a, u, nil)
			if !reflect.DeepEqual(first, second) {
				t.Fatalf("two reads differ:\n%+v\n%+v", first.Review, second.Review)
			}
			score, err := a.Score(context.Background(), u)
			if err != nil {
				t.Fatal(err)
			}
			if score.Score != first.Review.Score {
				t.Errorf("Score gives %d, Analyze %d", score.Score, first.Review.Score)
			}
		})
	}
}

func TestPreviousReviewMarksNewOpenAndFixed(t *testing.T) {
	srv := poorStore(t)
	a := newTestAnalyzer(t, srv, Options{})
	first := analyze(t, a, srv.URL, nil).Review
	// Against no review at all, nothing is new: a first review has no
	// "New" badges (they would call every finding new), every finding is simply open.
	for _, f := range append(first.Findings, first.Notes...) {
		if f.State != domain.StateOpen {
			t.Fatalf("first review finding %q is %q", f.Title, f.State)
		}
	}
	prev := first
	prev.Findings = append([]domain.Finding{}, first.Findings[1:]...) // the first finding was not there before
	gone := domain.Finding{ID: "canonical-gone", Group: domain.GroupSearch, Check: review.CheckCanonical, Title: "Old", URL: srv.URL + "/old", Element: "<link rel=\"canonical\">", Why: "w", Fix: "f", PointsLost: 1, State: domain.StateOpen}
	prev.Findings = append(prev.Findings, gone, domain.Finding{ID: "long-fixed", State: domain.StateFixed})

	second := analyze(t, a, srv.URL, &prev).Review
	checkAccounting(t, second)
	states := map[string]string{}
	for _, f := range second.Findings {
		states[f.ID] = f.State
		if f.State == domain.StateFixed && f.PointsLost != 0 {
			t.Errorf("fixed finding %s still loses %d points", f.ID, f.PointsLost)
		}
	}
	if states[first.Findings[0].ID] != domain.StateNew {
		t.Errorf("finding absent before should be new, got %q", states[first.Findings[0].ID])
	}
	if states[first.Findings[1].ID] != domain.StateOpen {
		t.Errorf("finding present before should be open, got %q", states[first.Findings[1].ID])
	}
	if states["canonical-gone"] != domain.StateFixed {
		t.Errorf("finding gone since should be fixed, got %q", states["canonical-gone"])
	}
	if _, ok := states["long-fixed"]; ok {
		t.Error("a finding fixed in an earlier review is listed again")
	}
	if second.Score != first.Score {
		t.Errorf("score changed from %d to %d", first.Score, second.Score)
	}
}

func TestProgressIsReportedInOrder(t *testing.T) {
	srv := poorStore(t)
	var pcts []int
	var steps []string
	_, err := newTestAnalyzer(t, srv, Options{}).Analyze(context.Background(), srv.URL, nil, func(p int, s string) {
		pcts = append(pcts, p)
		steps = append(steps, s)
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.IsSorted(pcts) || pcts[0] != 0 || pcts[len(pcts)-1] != 100 {
		t.Errorf("progress %v", pcts)
	}
	for _, want := range []string{"Reading your home page", "Checking 5 pages", "Writing campaign ideas"} {
		if !slices.Contains(steps, want) {
			t.Errorf("steps %q lack %q", steps, want)
		}
	}
}

// TestANameEndingInAStopGetsOneStop: a store whose name ends in a full stop
// ("Bramble Honey Co.") closes many written sentences; none of the review's
// findings, the summary, the insights or the ideas says "Co..".
func TestANameEndingInAStopGetsOneStop(t *testing.T) {
	srv := poorStoreNamed(t, "Bramble Honey Co.")
	res := analyze(t, newTestAnalyzer(t, srv, Options{}), srv.URL, nil)
	var texts []string
	for _, f := range append(res.Review.Findings, res.Review.Notes...) {
		texts = append(texts, f.Title, f.Why, f.Fix)
	}
	texts = append(texts, res.Summary)
	for _, in := range res.Insights {
		texts = append(texts, in.Text, in.Evidence)
	}
	for _, idea := range res.Ideas {
		texts = append(texts, idea.Title, idea.WhyNow, idea.SubjectLine, idea.Body, idea.Timing)
	}
	named := 0
	for _, text := range texts {
		if strings.Contains(text, "Bramble Honey Co.") {
			named++
		}
		if strings.Contains(text, "Co..") {
			t.Errorf("a double stop: %q", text)
		}
	}
	if named < 3 {
		t.Fatalf("the store's name ends only %d texts: the test reads nothing", named)
	}
}
