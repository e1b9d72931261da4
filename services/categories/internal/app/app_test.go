package app

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"uplift.dev/categories/internal/domain"
)

// memRepo is an in-memory Repository that records the effects it applied.
type memRepo struct {
	mu       sync.Mutex
	cats     map[string]domain.Category
	reports  []domain.Report
	ideas    map[string][]domain.Idea // by category, newest first
	stale    map[string]bool          // invalidated idea ids
	effects  []domain.Effects
	progress []int
	signals  map[string]domain.StoreSignals
	// weekly: started weeks by category; claims: claimed report ids;
	// weeklyReady: what FinishReview published for the weekly email.
	weekly      map[string][]string
	claims      map[string]bool
	weeklyReady []domain.WeeklyReview
	noData      []domain.NoDataReport
}

func newMemRepo() *memRepo {
	return &memRepo{cats: map[string]domain.Category{}, ideas: map[string][]domain.Idea{}, stale: map[string]bool{},
		signals: map[string]domain.StoreSignals{}, weekly: map[string][]string{}, claims: map[string]bool{}}
}

func (m *memRepo) Ensure(_ context.Context, c domain.Category) (domain.Category, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	got, ok := m.cats[c.ID]
	if !ok {
		m.cats[c.ID] = c
		return c, nil
	}
	if got.OwnerID == c.OwnerID {
		if got.Name == "" {
			got.Name = c.Name
		}
		if got.ShopifyCategoryID == "" {
			got.ShopifyCategoryID = c.ShopifyCategoryID
		}
		if got.TimeZone == "" {
			got.TimeZone = c.TimeZone
		}
		m.cats[c.ID] = got
	}
	return got, nil
}

func (m *memRepo) Get(_ context.Context, id string) (domain.Category, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.cats[id]
	if !ok {
		return c, domain.ErrNotFound
	}
	return c, nil
}

func (m *memRepo) Update(_ context.Context, id string, fn func(*domain.Category) (domain.Effects, error)) (domain.Category, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.cats[id]
	if !ok {
		return c, domain.ErrNotFound
	}
	eff, err := fn(&c)
	if err != nil {
		return domain.Category{}, err
	}
	m.cats[id] = c
	m.effects = append(m.effects, eff)
	if eff.InvalidateIdeas {
		// As the real repository does: every idea goes stale, and the
		// store's are issued again under new ids.
		var again []domain.Idea
		for _, i := range m.ideas[id] {
			if !m.stale[i.ID] && i.Topic != "" {
				c := i
				c.ID = uuid.NewString()
				again = append(again, c)
			}
			m.stale[i.ID] = true
		}
		m.ideas[id] = append(again, m.ideas[id]...)
	}
	if eff.NewReport != nil {
		r := *eff.NewReport
		r.CreatedAt = time.Now()
		m.reports = append(m.reports, r)
	}
	return c, nil
}

func (m *memRepo) find(pred func(domain.Report) bool) *domain.Report {
	for i := len(m.reports) - 1; i >= 0; i-- {
		if pred(m.reports[i]) {
			r := m.reports[i]
			return &r
		}
	}
	return nil
}

func (m *memRepo) Report(_ context.Context, id string) (domain.Report, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r := m.find(func(r domain.Report) bool { return r.ID == id }); r != nil {
		return *r, nil
	}
	return domain.Report{}, domain.ErrNotFound
}

func (m *memRepo) LatestReport(_ context.Context, cat string) (*domain.Report, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.find(func(r domain.Report) bool { return r.CategoryID == cat }), nil
}

func (m *memRepo) LatestReadyReport(_ context.Context, cat string) (*domain.Report, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.find(func(r domain.Report) bool { return r.CategoryID == cat && r.Status == domain.StatusReady }), nil
}

func (m *memRepo) RecentIdeas(_ context.Context, cat string, limit int) ([]domain.Idea, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var store, site []domain.Idea
	for _, i := range m.ideas[cat] {
		if m.stale[i.ID] {
			continue
		}
		if i.Topic != "" {
			store = append(store, i)
		} else {
			site = append(site, i)
		}
	}
	out := append(store, site...)
	return out[:min(limit, len(out))], nil
}

func (m *memRepo) StoreSignals(_ context.Context, cat string) (*domain.StoreSignals, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s, ok := m.signals[cat]; ok {
		return &s, nil
	}
	return nil, nil
}

func (m *memRepo) UpdateStoreSignals(_ context.Context, cat string,
	fn func(domain.Category, *domain.StoreSignals, []domain.Idea) (domain.StoreChange, error)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.cats[cat]
	if !ok {
		return domain.ErrNotFound
	}
	var cur *domain.StoreSignals
	if s, ok := m.signals[cat]; ok {
		cur = &s
	}
	var current []domain.Idea
	for _, i := range m.ideas[cat] {
		if !m.stale[i.ID] && i.Topic != "" {
			current = append(current, i)
		}
	}
	ch, err := fn(c, cur, current)
	if err != nil || ch.Signals == nil {
		return err
	}
	m.signals[cat] = *ch.Signals
	for _, id := range ch.RetireIdeas {
		m.stale[id] = true
	}
	var added []domain.Idea
	for _, i := range ch.AddIdeas {
		i.ID = uuid.NewString()
		added = append(added, i)
	}
	m.ideas[cat] = append(added, m.ideas[cat]...)
	return nil
}

func (m *memRepo) Idea(_ context.Context, cat, id string) (domain.Idea, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, i := range m.ideas[cat] {
		if i.ID == id {
			return i, nil
		}
	}
	return domain.Idea{}, domain.ErrIdeaNotFound
}

func (m *memRepo) setReport(id string, fn func(*domain.Report)) {
	for i := range m.reports {
		if m.reports[i].ID == id {
			fn(&m.reports[i])
		}
	}
}

func (m *memRepo) ReviewProgress(_ context.Context, _, id string, pct int, step string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.progress = append(m.progress, pct)
	m.setReport(id, func(r *domain.Report) { r.Progress, r.Step = pct, step })
	return nil
}

func (m *memRepo) FinishReview(_ context.Context, cat, id string, a domain.Analysis, weekly *domain.WeeklyReview) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r := m.find(func(r domain.Report) bool { return r.ID == id }); weekly != nil && r != nil && (weekly.First || r.Week != "") {
		m.weeklyReady = append(m.weeklyReady, *weekly)
	}
	ideas := slices.Clone(a.Ideas)
	for i := range ideas {
		ideas[i].ID = uuid.NewString()
	}
	// The old review's ideas make way; the store's stay.
	for _, i := range m.ideas[cat] {
		if i.Topic == "" {
			m.stale[i.ID] = true
		}
	}
	m.ideas[cat] = append(ideas, m.ideas[cat]...)
	m.setReport(id, func(r *domain.Report) {
		r.Status, r.Progress, r.Summary, r.Insights, r.Ideas = domain.StatusReady, 100, a.Summary, a.Insights, ideas
		review := a.Review
		r.Review = &review
	})
	c := m.cats[cat]
	c.AdditionalInfo = a.Summary
	m.cats[cat] = c
	return true, nil
}

func (m *memRepo) DeleteOwnedBy(_ context.Context, owner string) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for id, c := range m.cats {
		if c.OwnerID == owner {
			delete(m.cats, id)
			delete(m.ideas, id)
			delete(m.signals, id)
			m.reports = slices.DeleteFunc(m.reports, func(r domain.Report) bool { return r.CategoryID == id })
			n++
		}
	}
	return n, nil
}

func (m *memRepo) UnsubscribeOwnedBy(_ context.Context, owner string) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for id, c := range m.cats {
		if c.OwnerID == owner && !(c.DisableWeeklyEmail && c.DisableBusinessReport) {
			c.DisableWeeklyEmail, c.DisableBusinessReport = true, true
			m.cats[id] = c
			n++
		}
	}
	return n, nil
}

func (m *memRepo) FailReview(_ context.Context, _, id, msg string, weekly *domain.WeeklyReview) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.setReport(id, func(r *domain.Report) {
		if r.Status == domain.StatusGenerating {
			r.Status, r.Error = domain.StatusFailed, msg
			if weekly != nil && r.Week != "" {
				w := *weekly
				w.Week = r.Week
				m.weeklyReady = append(m.weeklyReady, w)
			}
		}
	})
	return nil
}

// fakeAnalyzer reads "sites" from a map: a site not in it cannot be read.
type fakeAnalyzer struct {
	mu       sync.Mutex
	sites    map[string]domain.Analysis
	previous []*domain.Review
	checked  []string
	zones    []string // the zone each review's plans were dated in
	// refusals are what Check and Score answer for a site (else "unreadable").
	refusals map[string]error
}

func (f *fakeAnalyzer) Check(_ context.Context, site string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.checked = append(f.checked, site)
	if err := f.refusals[site]; err != nil {
		return err
	}
	if _, ok := f.sites[site]; !ok {
		return errors.New("unreadable")
	}
	return nil
}

func (f *fakeAnalyzer) Analyze(_ context.Context, site string, prev *domain.Review, loc *time.Location, progress func(int, string)) (domain.Analysis, error) {
	f.mu.Lock()
	a, ok := f.sites[site]
	f.previous = append(f.previous, prev)
	f.zones = append(f.zones, loc.String())
	f.mu.Unlock()
	progress(50, "Reading pages")
	progress(150, "Writing ideas")
	if !ok {
		return domain.Analysis{}, errors.New("site went away")
	}
	return a, nil
}

func (f *fakeAnalyzer) Score(_ context.Context, site string) (domain.Review, error) {
	if err := f.refusals[site]; err != nil {
		return domain.Review{}, err
	}
	a, ok := f.sites[site]
	if !ok {
		return domain.Review{}, errors.New("unreadable")
	}
	return a.Review, nil
}

type fakeProfiles struct{ ids map[string]string }

func (f fakeProfiles) OwnCategoryID(_ context.Context, uid string) (string, error) {
	if id, ok := f.ids[uid]; ok {
		return id, nil
	}
	return "", domain.ErrNoProfile
}

const shop = "https://shop.example/"

func analysisOf(score int) domain.Analysis {
	return domain.Analysis{
		Summary:  "Sells hand-made mugs to coffee lovers, 12 to 40 EUR.",
		Review:   domain.Review{SiteURL: shop, Score: score, Findings: []domain.Finding{{ID: "f1", Check: "meta-description"}}},
		Insights: []domain.Insight{{ID: "i1", Text: "No meta description", Evidence: "home page"}},
		Ideas:    []domain.Idea{{Title: "Mug of the month"}, {Title: "Gift sets"}, {Title: "Winter warmers"}, {Title: "Latte art"}},
	}
}

type fixture struct {
	app      *App
	repo     *memRepo
	analyzer *fakeAnalyzer
	catID    string
	owner    domain.Caller
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	repo := newMemRepo()
	an := &fakeAnalyzer{sites: map[string]domain.Analysis{shop: analysisOf(64)}}
	cat := uuid.NewString()
	a := New(repo, an, fakeProfiles{ids: map[string]string{"owner": cat}}, slog.New(slog.NewTextHandler(io.Discard, nil)), Options{})
	if err := a.CreateFromSignUp(context.Background(), SignUp{UserID: "owner", CategoryID: cat, DisplayName: "Mugs & Co"}); err != nil {
		t.Fatal(err)
	}
	return fixture{app: a, repo: repo, analyzer: an, catID: cat, owner: domain.Caller{UID: "owner"}}
}

func ptr[T any](v T) *T { return &v }

// TestReviewPlansInTheStoresZone: the review is asked to date its plans
// by the business's time zone, UTC while none is known.
func TestReviewPlansInTheStoresZone(t *testing.T) {
	for _, zone := range []string{"", "America/Los_Angeles", "Australia/Sydney"} {
		f := newFixture(t)
		ctx := context.Background()
		if zone != "" {
			if _, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{TimeZone: ptr(zone)}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(shop)}); err != nil {
			t.Fatal(err)
		}
		rep := f.repo.effects[len(f.repo.effects)-1].NewReport
		if err := f.app.RunReview(ctx, ReviewRequest{CategoryID: f.catID, ReportID: rep.ID, SiteURL: shop}); err != nil {
			t.Fatal(err)
		}
		want := zone
		if want == "" {
			want = "UTC"
		}
		if !slices.Equal(f.analyzer.zones, []string{want}) {
			t.Errorf("zone %q: review dated in %v", zone, f.analyzer.zones)
		}
	}
}

func TestSavingAWebsiteStartsAReviewThatFillsTheReport(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	r, err := f.app.CurrentReport(ctx, f.owner, f.catID)
	if err != nil || r.Status != domain.StatusNoWebsite {
		t.Fatalf("before: %+v %v", r, err)
	}
	c, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(" shop.example "), DisableWeeklyEmail: ptr(true)})
	if err != nil {
		t.Fatal(err)
	}
	if c.SiteURL != shop || !c.DisableWeeklyEmail {
		t.Fatalf("saved %+v", c)
	}
	eff := f.repo.effects[len(f.repo.effects)-1]
	if eff.NewReport == nil || !eff.InvalidateIdeas || eff.NewReport.Status != domain.StatusGenerating {
		t.Fatalf("effects %+v", eff)
	}
	r, _ = f.app.CurrentReport(ctx, f.owner, f.catID)
	if r.Status != domain.StatusGenerating {
		t.Fatalf("after save: %+v", r)
	}
	// The Business profile then asks for new ideas (spec section 4): the
	// review the save started writes them; a second review is not started.
	n := len(f.repo.reports)
	if err := f.app.InvalidateIdeas(ctx, f.owner, f.catID); err != nil || len(f.repo.reports) != n {
		t.Fatalf("invalidate during the save's review started another: %v, %d reports, want %d", err, len(f.repo.reports), n)
	}
	if eff := f.repo.effects[len(f.repo.effects)-1]; !eff.InvalidateIdeas {
		t.Fatalf("invalidate did not drop the ideas: %+v", eff)
	}
	if err := f.app.RunReview(ctx, ReviewRequest{CategoryID: f.catID, ReportID: eff.NewReport.ID, SiteURL: shop}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.repo.progress, []int{0, 50, 100}) {
		t.Fatalf("progress %v (must start at 0 and be clamped to 100)", f.repo.progress)
	}
	r, _ = f.app.CurrentReport(ctx, f.owner, f.catID)
	if r.Status != domain.StatusReady || r.Review.Score != 64 || len(r.Insights) != 1 {
		t.Fatalf("report %+v", r)
	}
	c, _ = f.app.GetCategory(ctx, f.owner, f.catID)
	if c.AdditionalInfo != analysisOf(64).Summary {
		t.Fatalf("summary not saved: %q", c.AdditionalInfo)
	}
	// Saving the same site again starts nothing new.
	n = len(f.repo.reports)
	if _, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(shop)}); err != nil || len(f.repo.reports) != n {
		t.Fatalf("same site restarted the review: %v, %d reports", err, len(f.repo.reports))
	}
	// A second review of the same site is given the first as previous.
	if err := f.app.InvalidateIdeas(ctx, f.owner, f.catID); err != nil {
		t.Fatal(err)
	}
	if ideas, _ := f.app.RecentIdeas(ctx, f.owner, f.catID); len(ideas) != 0 {
		t.Fatalf("invalidated ideas still listed: %v", ideas)
	}
	latest, _ := f.repo.LatestReport(ctx, f.catID)
	r, _ = f.app.CurrentReport(ctx, f.owner, f.catID)
	if r.Status != domain.StatusGenerating || r.Review == nil || r.Review.Score != 64 {
		t.Fatalf("regenerating report should keep showing the last review: %+v", r)
	}
	if err := f.app.RunReview(ctx, ReviewRequest{CategoryID: f.catID, ReportID: latest.ID}); err != nil {
		t.Fatal(err)
	}
	if p := f.analyzer.previous; len(p) != 2 || p[0] != nil || p[1] == nil || p[1].Score != 64 {
		t.Fatalf("previous reviews passed: %v", p)
	}
	if ideas, _ := f.app.RecentIdeas(ctx, f.owner, f.catID); len(ideas) != 4 {
		t.Fatalf("regenerated ideas: %d", len(ideas))
	}
}

func TestUnreadableWebsiteIsRefusedAndNothingSaved(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for _, site := range []string{"https://down.example", "not a url", strings.Repeat("a", 3000)} {
		_, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(site), DisableWeeklyEmail: ptr(true)})
		if !errors.Is(err, domain.ErrUnreadableSite) {
			t.Fatalf("%.20q: err = %v", site, err)
		}
	}
	c, _ := f.app.GetCategory(ctx, f.owner, f.catID)
	if c.SiteURL != "" || c.DisableWeeklyEmail || len(f.repo.effects) != 0 {
		t.Fatalf("something was saved: %+v %v", c, f.repo.effects)
	}
}

// TestRefusedWebsiteSaysWhichItWas: the check's kind of failure reaches
// the owner as a message on the website field, and nothing is saved.
func TestRefusedWebsiteSaysWhichItWas(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.analyzer.refusals = map[string]error{
		"https://typo-shop.example/": &domain.UnreadableError{Problem: domain.SiteNotFound, Err: errors.New("no such host")},
		"http://10.1.2.3/":           &domain.UnreadableError{Problem: domain.SitePrivate, Err: errors.New("blocked")},
	}
	for site, want := range map[string]string{
		"typo-shop.example":    domain.SiteNotFoundMessage,
		"http://10.1.2.3":      domain.SitePrivateMessage,
		"https://down.example": domain.UnreadableSiteMessage,
	} {
		_, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(site)})
		var ve *domain.ValidationError
		got := ""
		if errors.As(err, &ve) {
			got = ve.Message
		}
		if want == domain.UnreadableSiteMessage {
			// A site the check could not classify keeps the spec's message (the transport's rule).
			if ve != nil || !errors.Is(err, domain.ErrUnreadableSite) {
				t.Errorf("%s: %v", site, err)
			}
			continue
		}
		if got != want || ve.Field != domain.SiteURLField || !errors.Is(err, domain.ErrUnreadableSite) {
			t.Errorf("%s: %v, want %q", site, err, want)
		}
	}
	if c, _ := f.app.GetCategory(ctx, f.owner, f.catID); c.SiteURL != "" {
		t.Fatalf("saved %q", c.SiteURL)
	}
}

func TestClearingTheWebsite(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if _, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(shop)}); err != nil {
		t.Fatal(err)
	}
	c, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr("")})
	if err != nil || c.SiteURL != "" {
		t.Fatalf("%+v %v", c, err)
	}
	if eff := f.repo.effects[len(f.repo.effects)-1]; eff.NewReport != nil || !eff.InvalidateIdeas {
		t.Fatalf("clearing effects %+v", eff)
	}
	if r, _ := f.app.CurrentReport(ctx, f.owner, f.catID); r.Status != domain.StatusNoWebsite {
		t.Fatalf("report %+v", r)
	}
}

// TestAPatchKeepsTheFieldsItLeavesOut: the PATCH changes only the fields it
// sends. Leaving the website out of a save of the weekly switch, the time
// zone or the competitors used to clear it.
func TestAPatchKeepsTheFieldsItLeavesOut(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	other := "https://other.example/"
	f.analyzer.sites[other] = analysisOf(10)
	rival := []string{"https://rival.example/"}
	all := ContentParams{SiteURL: ptr(shop), DisableWeeklyEmail: ptr(true), TimeZone: ptr("Europe/Paris"), Competitors: &rival}
	if _, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, all); err != nil {
		t.Fatal(err)
	}
	saved := domain.Category{SiteURL: shop, DisableWeeklyEmail: true, TimeZone: "Europe/Paris", Competitors: rival}
	noRival := []string{}
	for _, tt := range []struct {
		name   string
		patch  ContentParams
		change func(*domain.Category)
	}{
		{"nothing", ContentParams{}, func(*domain.Category) {}},
		{"the weekly switch alone", ContentParams{DisableWeeklyEmail: ptr(false)}, func(c *domain.Category) { c.DisableWeeklyEmail = false }},
		{"the time zone alone", ContentParams{TimeZone: ptr("Asia/Tokyo")}, func(c *domain.Category) { c.TimeZone = "Asia/Tokyo" }},
		{"the competitors alone", ContentParams{Competitors: &noRival}, func(c *domain.Category) { c.Competitors = nil }},
		{"the website alone", ContentParams{SiteURL: ptr(other)}, func(c *domain.Category) { c.SiteURL = other }},
		{"the website cleared", ContentParams{SiteURL: ptr("")}, func(c *domain.Category) { c.SiteURL = "" }},
	} {
		got, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, tt.patch)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		tt.change(&saved)
		if got.SiteURL != saved.SiteURL || got.DisableWeeklyEmail != saved.DisableWeeklyEmail ||
			got.TimeZone != saved.TimeZone || !slices.Equal(got.Competitors, saved.Competitors) {
			t.Fatalf("after a PATCH of %s: site %q weekly off %t zone %q competitors %v, want %q %t %q %v", tt.name,
				got.SiteURL, got.DisableWeeklyEmail, got.TimeZone, got.Competitors,
				saved.SiteURL, saved.DisableWeeklyEmail, saved.TimeZone, saved.Competitors)
		}
	}
}

func TestOlderReviewRequestIsSuperseded(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.analyzer.sites["https://other.example/"] = analysisOf(10)
	_, _ = f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(shop)})
	first := f.repo.effects[len(f.repo.effects)-1].NewReport.ID
	_, _ = f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr("https://other.example")})
	if err := f.app.RunReview(ctx, ReviewRequest{CategoryID: f.catID, ReportID: first}); err != nil {
		t.Fatal(err)
	}
	// The review service reviews what it was asked; its answer finds the
	// report replaced.
	old, _ := f.repo.Report(ctx, first)
	if old.Status != domain.StatusFailed || old.Error != domain.SupersededMessage {
		t.Fatalf("old report %+v", old)
	}
	// Answering a finished report again (a redelivery) does nothing.
	if err := f.app.FinishReview(ctx, ReviewResult{CategoryID: f.catID, ReportID: first, Analysis: analysisOf(10)}); err != nil {
		t.Fatalf("again: %v", err)
	}
	if again, _ := f.repo.Report(ctx, first); again.Status != domain.StatusFailed || again.Error != domain.SupersededMessage {
		t.Fatalf("old report after a redelivery %+v", again)
	}
}

func TestFailedReviewSaysWhyForPeople(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	_, _ = f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(shop)})
	id := f.repo.effects[len(f.repo.effects)-1].NewReport.ID
	delete(f.analyzer.sites, shop)
	if err := f.app.RunReview(ctx, ReviewRequest{CategoryID: f.catID, ReportID: id}); err != nil {
		t.Fatal(err)
	}
	r, _ := f.app.CurrentReport(ctx, f.owner, f.catID)
	if r.Status != domain.StatusFailed || r.Error != domain.FailureMessage {
		t.Fatalf("report %+v", r)
	}
}

func TestWhoMayActOnACategory(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	tests := []struct {
		name   string
		caller domain.Caller
		id     string
		want   error
	}{
		{"owner", f.owner, f.catID, nil},
		{"uplifter on behalf", domain.Caller{UID: "staff", Uplifter: true}, f.catID, nil},
		{"another user", domain.Caller{UID: "someone"}, f.catID, domain.ErrPermissionDenied},
		{"nobody", domain.Caller{}, f.catID, domain.ErrPermissionDenied},
		{"unknown category", f.owner, uuid.NewString(), domain.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.app.UpdateLabel(ctx, tt.caller, tt.id, "New name")
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
	var ve *domain.ValidationError
	if _, err := f.app.GetCategory(ctx, f.owner, "../etc"); !errors.As(err, &ve) {
		t.Fatalf("bad id: %v", err)
	}
}

func TestCreateCategoryLinksShopifyOnceAndIsSafeToRepeat(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	c, err := f.app.CreateCategory(ctx, f.owner, "mugs@example.com", "shopify-1", "")
	if err != nil || c.ID != f.catID || c.ShopifyCategoryID != "shopify-1" || c.Name != "Mugs & Co" {
		t.Fatalf("%+v %v", c, err)
	}
	c, err = f.app.CreateCategory(ctx, f.owner, "mugs@example.com", "shopify-2", "")
	if err != nil || c.ShopifyCategoryID != "shopify-1" {
		t.Fatalf("second call changed the link: %+v %v", c, err)
	}
	if _, err := f.app.CreateCategory(ctx, domain.Caller{UID: "ghost"}, "", "", ""); !errors.Is(err, domain.ErrNoProfile) {
		t.Fatalf("no profile: %v", err)
	}
}

func TestWebsiteScore(t *testing.T) {
	f := newFixture(t)
	r, err := f.app.WebsiteScore(context.Background(), "shop.example")
	if err != nil || r.Score != 64 {
		t.Fatalf("%+v %v", r, err)
	}
	for _, raw := range []string{"", "https://down.example", "a b"} {
		if _, err := f.app.WebsiteScore(context.Background(), raw); !errors.Is(err, domain.ErrUnreadableSite) {
			t.Fatalf("%q: %v", raw, err)
		}
	}
}

// TestWebsiteScoreSaysWhichItWas: the public score names a typo'd domain
// and a private address as the profile's save does, under the URL field.
func TestWebsiteScoreSaysWhichItWas(t *testing.T) {
	f := newFixture(t)
	f.analyzer.refusals = map[string]error{
		"https://typo-shop.example/": &domain.UnreadableError{Problem: domain.SiteNotFound, Err: errors.New("no such host")},
		"http://10.1.2.3/":           &domain.UnreadableError{Problem: domain.SitePrivate, Err: errors.New("blocked")},
	}
	for site, want := range map[string]string{
		"typo-shop.example": domain.SiteNotFoundMessage,
		"http://10.1.2.3":   domain.SitePrivateMessage,
	} {
		_, err := f.app.WebsiteScore(context.Background(), site)
		var ve *domain.ValidationError
		if !errors.As(err, &ve) || ve.Message != want || ve.Field != domain.SiteURLField || !errors.Is(err, domain.ErrUnreadableSite) {
			t.Errorf("%s: %v, want %q", site, err, want)
		}
	}
}

// competitorReview is a review whose checks earn the given points per group.
func competitorReview(score int, earned map[string]int) domain.Review {
	r := domain.Review{Score: score}
	for _, g := range []string{domain.GroupSearch, domain.GroupSpeed, domain.GroupMobile, domain.GroupTrust, domain.GroupConversion} {
		r.Checks = append(r.Checks, domain.CheckResult{Check: g + "-check", Group: g, Weight: 20, Earned: earned[g]})
	}
	return r
}

func TestCompetitorsAreCheckedSavedAndReviewedBesideTheStore(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	own := analysisOf(64)
	own.Review.Checks = competitorReview(64, map[string]int{"search": 10, "speed": 14, "mobile": 20, "trust": 10, "conversion": 10}).Checks
	f.analyzer.sites[shop] = own
	rival := analysisOf(70)
	rival.Review = competitorReview(70, map[string]int{"search": 18, "speed": 10, "mobile": 20, "trust": 12, "conversion": 10})
	f.analyzer.sites["https://rival.example/"] = rival
	if _, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(shop)}); err != nil {
		t.Fatal(err)
	}
	var ve *domain.ValidationError
	for _, tt := range []struct {
		urls []string
		msg  string
	}{
		{[]string{"a.example", "b.example", "c.example", "d.example"}, domain.TooManyCompetitorsMsg},
		{make([]string, 5000), domain.TooManyCompetitorsMsg},
		{[]string{"not a url at all"}, domain.BadCompetitorMsg},
		{[]string{"https://shop.example"}, domain.CompetitorIsYouMessage},
	} {
		_, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(shop), Competitors: &tt.urls})
		if !errors.As(err, &ve) || ve.Field != domain.CompetitorsField || ve.Message != tt.msg {
			t.Errorf("%v: %v, want %q", tt.urls, err, tt.msg)
		}
	}
	// (The profile sends its website with every save: an absent one clears it.)
	reports := len(f.repo.reports)
	urls := []string{" rival.example ", "", "https://rival.example/", "gone.example"}
	c, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(shop), Competitors: &urls})
	if err != nil || !slices.Equal(c.Competitors, []string{"https://rival.example/", "https://gone.example/"}) {
		t.Fatalf("saved %v, %v", c.Competitors, err)
	}
	if len(f.repo.reports) != reports+1 {
		t.Fatal("new competitors did not start a review")
	}
	// The same list again changes nothing and starts nothing.
	if _, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(shop), Competitors: &urls}); err != nil || len(f.repo.reports) != reports+1 {
		t.Fatalf("same competitors: %v, %d reports", err, len(f.repo.reports))
	}
	latest, _ := f.repo.LatestReport(ctx, f.catID)
	if err := f.app.RunReview(ctx, ReviewRequest{CategoryID: f.catID, ReportID: latest.ID}); err != nil {
		t.Fatal(err)
	}
	r, _ := f.app.CurrentReport(ctx, f.owner, f.catID)
	comps := r.Review.Competitors
	if len(comps) != 2 {
		t.Fatalf("competitors %+v", comps)
	}
	if c := comps[0]; !c.Reviewed || c.Score != 70 || !slices.Equal(c.Wins, []string{"search", "trust"}) {
		t.Errorf("rival %+v: should win search and trust only", c)
	}
	if c := comps[1]; c.Reviewed || c.Error != domain.CompetitorNotReadMessage || c.Score != 0 {
		t.Errorf("unreadable competitor %+v", c)
	}
	// Clearing them is an empty list.
	none := []string{}
	if c, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(shop), Competitors: &none}); err != nil || len(c.Competitors) != 0 {
		t.Fatalf("cleared: %v %v", c.Competitors, err)
	}
}
