package service_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"uplift.dev/platform/servicetest"

	fbauth "firebase.google.com/go/v4/auth"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"
	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"
	usersv1 "uplift.dev/proto/gen/uplift/users/v1"

	"uplift.dev/categories/internal/adapters/engine"
	"uplift.dev/categories/internal/app"
	"uplift.dev/categories/internal/domain"
	categories "uplift.dev/categories/internal/service"
	"uplift.dev/categories/migrations"
	"uplift.dev/platform/events"
	"uplift.dev/platform/firebasetest"
	"uplift.dev/platform/grpcclient"
	"uplift.dev/platform/natstest"
	"uplift.dev/platform/service"
	"uplift.dev/platform/validation"
	"uplift.dev/review/reviewtest"
)

// fakeAnalyzer stands in for the analysis engine, in the review service's
// worker (Analyze, Score) and for categories' own quick reads (Check,
// Score): sites it knows can be read; Analyze waits for gate (when set) so
// a test can see GENERATING.
type fakeAnalyzer struct {
	mu    sync.Mutex
	sites map[string]domain.Analysis
	gate  chan struct{}
}

func (f *fakeAnalyzer) get(site string) (domain.Analysis, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	a, ok := f.sites[site]
	return a, ok
}

func (f *fakeAnalyzer) Check(_ context.Context, site string) error {
	if _, ok := f.get(site); !ok {
		return errors.New("unreadable")
	}
	return nil
}

func (f *fakeAnalyzer) Analyze(ctx context.Context, site string, _ *domain.Review, _ *time.Location, progress func(int, string)) (domain.Analysis, error) {
	progress(30, "Reading your pages")
	f.mu.Lock()
	gate := f.gate
	f.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return domain.Analysis{}, ctx.Err()
		}
	}
	progress(80, "Writing campaign ideas")
	a, ok := f.get(site)
	if !ok {
		return domain.Analysis{}, reviewtest.Unreadable("it did not answer in time")
	}
	return a, nil
}

func (f *fakeAnalyzer) Score(_ context.Context, site string) (domain.Review, error) {
	a, ok := f.get(site)
	if !ok {
		return domain.Review{}, errors.New("unreadable")
	}
	return a.Review, nil
}

// fakeUsers answers GetProfile for known users, and only with a token.
type fakeUsers struct {
	usersv1.UnimplementedUsersServiceServer
	mu       sync.Mutex
	profiles map[string]string
}

func (f *fakeUsers) GetProfile(ctx context.Context, r *usersv1.GetProfileRequest) (*usersv1.GetProfileResponse, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	if a := md.Get("authorization"); len(a) == 0 || !strings.HasPrefix(a[0], "Bearer ") {
		return nil, status.Error(codes.Unauthenticated, "no token forwarded")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	id, ok := f.profiles[r.GetUserId()]
	if !ok {
		return nil, status.Error(codes.NotFound, "User not found.")
	}
	return &usersv1.GetProfileResponse{CategoryId: id, OriginalCategoryId: id}, nil
}

type harness struct {
	client   categoriesv1.CategoriesServiceClient
	js       jetstream.JetStream // the NATS admin's: reads what the service published
	nc       *nats.Conn          // watches what the service publishes (natstest.Observer)
	analyzer *fakeAnalyzer
	users    *fakeUsers
	fb       *fbauth.Client
	// db is the service's own pool, for asserting on rows no RPC shows
	// (the audit log, what a deletion left behind).
	db *pgxpool.Pool
	// admin is the database's administrator, for what the service's own
	// login may not see: the review's schema, other logins' sessions.
	admin *pgxpool.Pool
	// base is the service's settings: a worker joins the same database
	// and NATS with them.
	base service.Base
}

const goodSite = "https://good-store.test/"

func sampleAnalysis() domain.Analysis {
	return domain.Analysis{
		Summary: "Hand-made ceramic mugs for coffee lovers, 18 to 45 EUR.",
		Review: domain.Review{SiteURL: goodSite, Score: 72,
			Checks:   []domain.CheckResult{{Check: "meta-description", Group: domain.GroupSearch, Weight: 6, Earned: 0}},
			Findings: []domain.Finding{{ID: "meta-description:/", Group: domain.GroupSearch, Check: "meta-description", Title: "No meta description", URL: goodSite, Fix: "Add one", PointsLost: 6, State: domain.StateNew}}},
		Insights: []domain.Insight{{ID: "i1", Text: "Your best sellers are gift sets.", Evidence: "/products.json"}},
		Ideas: []domain.Idea{
			{Title: "Winter mug drop", WhyNow: "First frost next week", Channel: "email", SubjectLine: "Warm hands", Body: "…", Products: []string{"Frost mug"}, Timing: "Tuesday 9:00"},
			{Title: "Gift sets for teachers", Channel: "email"},
			{Title: "Latte art contest", Channel: "social"},
			{Title: "Restock alert", Channel: "email"},
		},
	}
}

// start runs the real categories service: real gRPC server, its own
// PostgreSQL database, an embedded NATS, the Firebase Auth emulator, with a
// fake analysis engine and a fake users service.
func start(t *testing.T) harness {
	t.Helper()
	return startWith(t, nil)
}

// startWith runs the service with analyzer, or the fake when nil.
func startWith(t *testing.T, analyzer app.Analyzer) harness {
	t.Helper()
	return startDeps(t, categories.Settings{}, categories.Deps{Analyzer: analyzer})
}

// startDeps runs the service with s and d (its users address is the fake's)
// and the review service's worker beside it, on the same database and bus:
// the real one when d's analyzer is the real engine, else one reviewing
// with the fake.
func startDeps(t *testing.T, s categories.Settings, d categories.Deps) harness {
	t.Helper()
	return startWithWorker(t, s, d, nil)
}

// startWithWorker is startDeps with the review worker w (its addresses
// filled in); nil is startDeps'.
func startWithWorker(t *testing.T, s categories.Settings, d categories.Deps, w *reviewtest.Worker) harness {
	t.Helper()
	analyzer := d.Analyzer
	users := &fakeUsers{profiles: map[string]string{}}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	usrv := grpc.NewServer()
	usersv1.RegisterUsersServiceServer(usrv, users)
	go func() { _ = usrv.Serve(lis) }()
	t.Cleanup(usrv.Stop)

	an := &fakeAnalyzer{sites: map[string]domain.Analysis{goodSite: sampleAnalysis()}}
	if analyzer == nil {
		analyzer = an
	}
	s.UsersAddr, d.Analyzer = lis.Addr().String(), analyzer
	base := servicetest.Base(t)
	conn, rt := servicetest.Run(t, "categories", base, migrations.FS, categories.WireWith(&s, &d))
	if w == nil {
		w = &reviewtest.Worker{Engine: an}
		switch e := analyzer.(type) {
		case engine.Engine: // the real review service: the real worker too
			w.Engine = nil
		case reviewtest.Engine:
			w.Engine = e
		}
	}
	w.DatabaseURL, w.NATSURL, w.NATSSenderKeys = base.DatabaseURL, base.NATSURL, base.NATSSenderKeys
	reviewtest.StartWorker(t, *w)
	admin, err := pgxpool.New(context.Background(), base.DatabaseURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(admin.Close)
	return harness{admin: admin, client: categoriesv1.NewCategoriesServiceClient(conn), js: natstest.Admin(t, base.NATSURL), nc: natstest.Observer(t, base.NATSURL),
		analyzer: an, users: users, fb: firebasetest.Client(t), db: rt.Pool, base: base}
}

// signUp makes a Firebase user (an uplifter when asked) and returns its uid
// and an ID token, the way the browser would have it.
func (h harness) signUp(t *testing.T, uplifter bool) (string, string) {
	t.Helper()
	if uplifter {
		return h.signUpWith(t, map[string]any{"uplifter": true})
	}
	return h.signUpWith(t, nil)
}

// signUpWith makes a Firebase user with custom claims (nil for none).
func (h harness) signUpWith(t *testing.T, claims map[string]any) (string, string) {
	t.Helper()
	ctx := context.Background()
	u, err := h.fb.CreateUser(ctx, (&fbauth.UserToCreate{}).Email("cat-"+uuid.NewString()[:8]+"@example.com").Password("secret12"))
	if err != nil {
		t.Fatal(err)
	}
	if claims != nil {
		if err := h.fb.SetCustomUserClaims(ctx, u.UID, claims); err != nil {
			t.Fatal(err)
		}
	}
	tok, err := h.fb.CustomToken(ctx, u.UID)
	if err != nil {
		t.Fatal(err)
	}
	return u.UID, firebasetest.SignInWithCustomToken(t, tok)
}

// owner signs up a store owner, publishes their UserCreated as the users
// service would, and waits for the category to exist.
func (h harness) owner(t *testing.T) (categoryID, token string) {
	t.Helper()
	_, categoryID, token = h.ownerUser(t)
	return categoryID, token
}

// ownerUser is owner that also returns the owner's uid.
func (h harness) ownerUser(t *testing.T) (uid, categoryID, token string) {
	t.Helper()
	uid, tok := h.signUp(t, false)
	categoryID = uuid.NewString()
	h.users.mu.Lock()
	h.users.profiles[uid] = categoryID
	h.users.mu.Unlock()
	data, _ := proto.Marshal(&eventsv1.UserCreated{UserId: uid, Email: "x@example.com", DisplayName: "Clay & Co",
		CategoryId: categoryID, OccurTime: timestamppb.Now()})
	// Published twice with different ids: the category is still made once.
	for range 2 {
		if err := natstest.PublishAsOwner(t, h.base.NATSURL, events.SubjectUserCreated, uuid.NewString(), data); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, func() bool {
		res, err := h.client.GetLabel(as(tok), &categoriesv1.GetLabelRequest{CategoryId: categoryID})
		return err == nil && res.GetName() == "Clay & Co"
	})
	return uid, categoryID, tok
}

func as(token string) context.Context {
	return metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+token)
}

func eventually(t *testing.T, ok func() bool) {
	t.Helper()
	// Generous: under -race beside every other package's tests on two
	// cores, a review round trip has taken over 15 s.
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in time")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestSignUpThenWebsiteReviewToReady(t *testing.T) {
	t.Parallel()
	h := start(t)
	cat, tok := h.owner(t)
	ctx := as(tok)

	// Live events for this category, on its own subject, as the gateway
	// subscribes to them.
	var mu sync.Mutex
	var seen []string
	subject, err := events.ReportUpdatedSubject(cat)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := h.nc.Subscribe(subject, func(m *nats.Msg) {
		var ev eventsv1.ReportUpdated
		if proto.Unmarshal(m.Data, &ev) == nil && ev.GetCategoryId() == cat {
			mu.Lock()
			seen = append(seen, ev.GetStatus())
			mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()

	r, err := h.client.GetCurrentReport(ctx, &categoriesv1.GetCurrentReportRequest{CategoryId: cat})
	if err != nil || r.GetReport().GetStatus() != categoriesv1.ReportStatus_REPORT_STATUS_NO_WEBSITE {
		t.Fatalf("before a website: %v %v", r, err)
	}

	gate := make(chan struct{})
	h.analyzer.mu.Lock()
	h.analyzer.gate = gate
	h.analyzer.mu.Unlock()
	params, err := h.client.UpdateContentGenerationParams(ctx, &categoriesv1.UpdateContentGenerationParamsRequest{
		CategoryId: cat, SiteUrl: proto.String("good-store.test"), DisableWeeklyEmail: proto.Bool(true),
	})
	if err != nil || params.GetSiteUrl() != goodSite || !params.GetDisableWeeklyEmail() {
		t.Fatalf("save: %v %v", params, err)
	}
	eventually(t, func() bool {
		r, err := h.client.GetCurrentReport(ctx, &categoriesv1.GetCurrentReportRequest{CategoryId: cat})
		return err == nil && r.GetReport().GetStatus() == categoriesv1.ReportStatus_REPORT_STATUS_GENERATING &&
			r.GetReport().GetProgressPercent() == 30 && r.GetReport().GetProgressStep() == "Reading your pages"
	})
	close(gate)
	var rep *categoriesv1.Report
	eventually(t, func() bool {
		r, err := h.client.GetCurrentReport(ctx, &categoriesv1.GetCurrentReportRequest{CategoryId: cat})
		rep = r.GetReport()
		return err == nil && rep.GetStatus() == categoriesv1.ReportStatus_REPORT_STATUS_READY
	})
	want := sampleAnalysis()
	if rep.GetScore() != 72 || rep.GetBand() != "high" || rep.GetSummary() != want.Summary || rep.GetProgressPercent() != 100 ||
		len(rep.GetFindings()) != 1 || rep.GetFindings()[0].GetFix() != "Add one" || len(rep.GetChecks()) != 1 ||
		len(rep.GetInsights()) != 1 || len(rep.GetIdeas()) != 3 || rep.GetIdeas()[0].GetTitle() != "Winter mug drop" {
		t.Fatalf("ready report %v", rep)
	}
	got, err := h.client.GetContentGenerationParams(ctx, &categoriesv1.GetContentGenerationParamsRequest{CategoryId: cat})
	if err != nil || got.GetAdditionalInfo() != want.Summary || got.GetSiteUrl() != goodSite {
		t.Fatalf("params %v %v", got, err)
	}
	ins, err := h.client.GetInsights(ctx, &categoriesv1.GetInsightsRequest{CategoryId: cat})
	if err != nil || len(ins.GetInsights()) != 1 || ins.GetInsights()[0].GetEvidence() != "/products.json" {
		t.Fatalf("insights %v %v", ins, err)
	}
	ideas, err := h.client.ListRecentIdeas(ctx, &categoriesv1.ListRecentIdeasRequest{CategoryId: cat})
	if err != nil || len(ideas.GetIdeas()) != 4 || ideas.GetIdeas()[0].GetTitle() != "Winter mug drop" {
		t.Fatalf("ideas %v %v", ideas, err)
	}
	idea, err := h.client.GetIdea(ctx, &categoriesv1.GetIdeaRequest{CategoryId: cat, IdeaId: ideas.GetIdeas()[0].GetId()})
	if err != nil || idea.GetIdea().GetSubjectLine() != "Warm hands" || idea.GetIdea().GetProducts()[0] != "Frost mug" {
		t.Fatalf("idea %v %v", idea, err)
	}
	eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		s := strings.Join(seen, ",")
		return strings.HasPrefix(s, "REPORT_STATUS_GENERATING") && strings.HasSuffix(s, "REPORT_STATUS_READY")
	})

	// Invalidating the ideas empties the list and has new ones made.
	if _, err := h.client.InvalidateCampaignIdeas(ctx, &categoriesv1.InvalidateCampaignIdeasRequest{CategoryId: cat}); err != nil {
		t.Fatal(err)
	}
	eventually(t, func() bool {
		r, err := h.client.GetCurrentReport(ctx, &categoriesv1.GetCurrentReportRequest{CategoryId: cat})
		fresh, _ := h.client.ListRecentIdeas(ctx, &categoriesv1.ListRecentIdeasRequest{CategoryId: cat})
		return err == nil && r.GetReport().GetId() != rep.GetId() &&
			r.GetReport().GetStatus() == categoriesv1.ReportStatus_REPORT_STATUS_READY &&
			len(fresh.GetIdeas()) == 4 && fresh.GetIdeas()[0].GetId() != ideas.GetIdeas()[0].GetId()
	})
	// The old idea still opens by id.
	if _, err := h.client.GetIdea(ctx, &categoriesv1.GetIdeaRequest{CategoryId: cat, IdeaId: ideas.GetIdeas()[0].GetId()}); err != nil {
		t.Fatalf("old idea: %v", err)
	}

	// The digest request is published for the digest service.
	if _, err := h.client.SendAIEmailDigest(ctx, &categoriesv1.SendAIEmailDigestRequest{CategoryId: cat}); err != nil {
		t.Fatal(err)
	}
	eventually(t, func() bool {
		stream, err := h.js.Stream(context.Background(), events.StreamName)
		if err != nil {
			return false
		}
		m, err := stream.GetLastMsgForSubject(context.Background(), events.SubjectDigestRequested)
		var ev eventsv1.DigestRequested
		return err == nil && proto.Unmarshal(m.Data, &ev) == nil && ev.GetCategoryId() == cat
	})

	// Clearing the website (null from the web, blank by the time it reaches
	// gRPC) leaves nothing to review.
	if _, err := h.client.UpdateContentGenerationParams(ctx, &categoriesv1.UpdateContentGenerationParamsRequest{CategoryId: cat, SiteUrl: proto.String("")}); err != nil {
		t.Fatal(err)
	}
	r, err = h.client.GetCurrentReport(ctx, &categoriesv1.GetCurrentReportRequest{CategoryId: cat})
	if err != nil || r.GetReport().GetStatus() != categoriesv1.ReportStatus_REPORT_STATUS_NO_WEBSITE {
		t.Fatalf("after clearing: %v %v", r, err)
	}
	if ideas, _ := h.client.ListRecentIdeas(ctx, &categoriesv1.ListRecentIdeasRequest{CategoryId: cat}); len(ideas.GetIdeas()) != 0 {
		t.Fatalf("ideas of a removed website still listed: %v", ideas)
	}
}

func TestUnreadableWebsiteSavesNothing(t *testing.T) {
	t.Parallel()
	h := start(t)
	cat, tok := h.owner(t)
	ctx := as(tok)
	for _, site := range []string{"https://down-store.test", "not a url", strings.Repeat("x", validation.MaxURLRunes)} {
		_, err := h.client.UpdateContentGenerationParams(ctx, &categoriesv1.UpdateContentGenerationParamsRequest{
			CategoryId: cat, SiteUrl: proto.String(site), DisableWeeklyEmail: proto.Bool(true),
		})
		if status.Code(err) != codes.InvalidArgument || status.Convert(err).Message() != domain.UnreadableSiteMessage {
			t.Fatalf("%.20q: %v", site, err)
		}
	}
	// Longer than any address is refused before it is read, naming the field.
	_, err := h.client.UpdateContentGenerationParams(ctx, &categoriesv1.UpdateContentGenerationParamsRequest{
		CategoryId: cat, SiteUrl: proto.String(strings.Repeat("x", validation.MaxURLRunes+1)),
	})
	if status.Code(err) != codes.InvalidArgument || !strings.HasPrefix(status.Convert(err).Message(), "siteUrl is too long") {
		t.Fatalf("a site address over the bound: %v", err)
	}
	got, err := h.client.GetContentGenerationParams(ctx, &categoriesv1.GetContentGenerationParamsRequest{CategoryId: cat})
	if err != nil || got.SiteUrl != nil || got.GetDisableWeeklyEmail() {
		t.Fatalf("something was saved: %v %v", got, err)
	}
	// The public score says the same for an unreadable site, without signing in.
	_, err = h.client.GetWebsiteScore(context.Background(), &categoriesv1.GetWebsiteScoreRequest{Url: "down-store.test"})
	if status.Code(err) != codes.InvalidArgument || status.Convert(err).Message() != domain.UnreadableSiteMessage {
		t.Fatalf("score: %v", err)
	}
	sc, err := h.client.GetWebsiteScore(context.Background(), &categoriesv1.GetWebsiteScoreRequest{Url: "good-store.test"})
	if err != nil || sc.GetScore() != 72 || sc.GetBand() != "high" || len(sc.GetFindings()) != 1 {
		t.Fatalf("score: %v %v", sc, err)
	}
}

func TestBadInputIsAClientError(t *testing.T) {
	t.Parallel()
	h := start(t)
	cat, tok := h.owner(t)
	ctx := as(tok)
	tests := []struct {
		name string
		call func() error
		want codes.Code
	}{
		{"huge label", func() error {
			_, err := h.client.UpdateLabel(ctx, &categoriesv1.UpdateLabelRequest{CategoryId: cat, Name: strings.Repeat("a", 101)})
			return err
		}, codes.InvalidArgument},
		{"blank label", func() error {
			_, err := h.client.UpdateLabel(ctx, &categoriesv1.UpdateLabelRequest{CategoryId: cat, Name: "   "})
			return err
		}, codes.InvalidArgument},
		{"bad category id", func() error {
			_, err := h.client.GetLabel(ctx, &categoriesv1.GetLabelRequest{CategoryId: "not-an-id"})
			return err
		}, codes.InvalidArgument},
		{"bad idea id", func() error {
			_, err := h.client.GetIdea(ctx, &categoriesv1.GetIdeaRequest{CategoryId: cat, IdeaId: "1 OR 1=1"})
			return err
		}, codes.InvalidArgument},
		{"unknown idea", func() error {
			_, err := h.client.GetIdea(ctx, &categoriesv1.GetIdeaRequest{CategoryId: cat, IdeaId: uuid.NewString()})
			return err
		}, codes.NotFound},
		{"empty score url", func() error {
			_, err := h.client.GetWebsiteScore(context.Background(), &categoriesv1.GetWebsiteScoreRequest{})
			return err
		}, codes.InvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.call(); status.Code(err) != tt.want {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
	res, err := h.client.UpdateLabel(ctx, &categoriesv1.UpdateLabelRequest{CategoryId: cat, Name: "  Clay Works  "})
	if err != nil || res.GetName() != "Clay Works" {
		t.Fatalf("rename: %v %v", res, err)
	}
	prefs, err := h.client.UpdateEmailPreferences(ctx, &categoriesv1.UpdateEmailPreferencesRequest{CategoryId: cat, DisableBusinessReport: proto.Bool(true)})
	if err != nil || !prefs.GetDisableBusinessReport() {
		t.Fatalf("prefs: %v %v", prefs, err)
	}
	if _, err := h.client.UpdateEmailPreferences(ctx, &categoriesv1.UpdateEmailPreferencesRequest{CategoryId: cat, DisableBusinessReport: proto.Bool(false)}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.client.DisableBusinessReport(ctx, &categoriesv1.DisableBusinessReportRequest{CategoryId: cat}); err != nil {
		t.Fatal(err)
	}
	got, err := h.client.GetEmailPreferences(ctx, &categoriesv1.GetEmailPreferencesRequest{CategoryId: cat})
	if err != nil || !got.GetDisableBusinessReport() {
		t.Fatalf("prefs: %v %v", got, err)
	}
}

func TestCreateCategoryLinksTheCallersOwn(t *testing.T) {
	t.Parallel()
	h := start(t)
	uid, tok := h.signUp(t, false)
	cat := uuid.NewString()
	h.users.mu.Lock()
	h.users.profiles[uid] = cat
	h.users.mu.Unlock()
	for range 2 { // safe to call again
		res, err := h.client.CreateCategory(as(tok), &categoriesv1.CreateCategoryRequest{ShopifyCategoryId: "shop-42"})
		if err != nil || res.GetCategory().GetId() != cat {
			t.Fatalf("create: %v %v", res, err)
		}
	}
	if _, err := h.client.GetLabel(as(tok), &categoriesv1.GetLabelRequest{CategoryId: cat}); err != nil {
		t.Fatal(err)
	}
	// A user the users service does not know has no category to create.
	_, stranger := h.signUp(t, false)
	if _, err := h.client.CreateCategory(as(stranger), &categoriesv1.CreateCategoryRequest{}); status.Code(err) != codes.FailedPrecondition {
		t.Fatalf("stranger: %v", err)
	}
}

// TestWhoMayCallWhat runs every RPC as anonymous, another user, the owner
// and an uplifter acting on behalf.
// pastAccess treats the refusals that only come after the access check
// (no website yet, no such product) as the access check passed.
func pastAccess(known bool, err error) error {
	if code := status.Code(err); known && (code == codes.FailedPrecondition || code == codes.NotFound) {
		return nil
	}
	return err
}

func TestWhoMayCallWhat(t *testing.T) {
	t.Parallel()
	h := start(t)
	cat, ownerTok := h.owner(t)
	_, otherTok := h.signUp(t, false)
	_, uplifterTok := h.signUp(t, true)
	c := h.client
	rpcs := map[string]func(context.Context, string) error{
		"GetLabel": func(ctx context.Context, id string) error {
			_, err := c.GetLabel(ctx, &categoriesv1.GetLabelRequest{CategoryId: id})
			return err
		},
		"UpdateLabel": func(ctx context.Context, id string) error {
			_, err := c.UpdateLabel(ctx, &categoriesv1.UpdateLabelRequest{CategoryId: id, Name: "Renamed"})
			return err
		},
		"GetContentGenerationParams": func(ctx context.Context, id string) error {
			_, err := c.GetContentGenerationParams(ctx, &categoriesv1.GetContentGenerationParamsRequest{CategoryId: id})
			return err
		},
		"UpdateContentGenerationParams": func(ctx context.Context, id string) error {
			_, err := c.UpdateContentGenerationParams(ctx, &categoriesv1.UpdateContentGenerationParamsRequest{CategoryId: id, DisableWeeklyEmail: proto.Bool(true)})
			return err
		},
		"UpdateEmailPreferences": func(ctx context.Context, id string) error {
			_, err := c.UpdateEmailPreferences(ctx, &categoriesv1.UpdateEmailPreferencesRequest{CategoryId: id, DisableBusinessReport: proto.Bool(true)})
			return err
		},
		"DisableBusinessReport": func(ctx context.Context, id string) error {
			_, err := c.DisableBusinessReport(ctx, &categoriesv1.DisableBusinessReportRequest{CategoryId: id})
			return err
		},
		"GetEmailPreferences": func(ctx context.Context, id string) error {
			_, err := c.GetEmailPreferences(ctx, &categoriesv1.GetEmailPreferencesRequest{CategoryId: id})
			return err
		},
		"GetCurrentReport": func(ctx context.Context, id string) error {
			_, err := c.GetCurrentReport(ctx, &categoriesv1.GetCurrentReportRequest{CategoryId: id})
			return err
		},
		"GetInsights": func(ctx context.Context, id string) error {
			_, err := c.GetInsights(ctx, &categoriesv1.GetInsightsRequest{CategoryId: id})
			return err
		},
		"ListRecentIdeas": func(ctx context.Context, id string) error {
			_, err := c.ListRecentIdeas(ctx, &categoriesv1.ListRecentIdeasRequest{CategoryId: id})
			return err
		},
		"InvalidateCampaignIdeas": func(ctx context.Context, id string) error {
			_, err := c.InvalidateCampaignIdeas(ctx, &categoriesv1.InvalidateCampaignIdeasRequest{CategoryId: id})
			return err
		},
		"SendAIEmailDigest": func(ctx context.Context, id string) error {
			_, err := c.SendAIEmailDigest(ctx, &categoriesv1.SendAIEmailDigestRequest{CategoryId: id})
			if status.Code(err) == codes.ResourceExhausted {
				return nil // past the access check: refused only as too soon after the last one
			}
			return err
		},
		// GetIdea of an idea that does not exist: past the access check it
		// is NotFound, before it PermissionDenied.
		"GetIdea": func(ctx context.Context, id string) error {
			_, err := c.GetIdea(ctx, &categoriesv1.GetIdeaRequest{CategoryId: id, IdeaId: uuid.NewString()})
			if id == cat && status.Code(err) == codes.NotFound {
				return nil
			}
			return err
		},
		// The catalogue of a category whose website is not saved: past the
		// access check FailedPrecondition (no website), before it refused.
		"ListCatalogueProducts": func(ctx context.Context, id string) error {
			_, err := c.ListCatalogueProducts(ctx, &categoriesv1.ListCatalogueProductsRequest{CategoryId: id})
			return pastAccess(id == cat, err)
		},
		"GetProductImage": func(ctx context.Context, id string) error {
			_, err := c.GetProductImage(ctx, &categoriesv1.GetProductImageRequest{CategoryId: id, ProductId: "no-such-product"})
			return pastAccess(id == cat, err)
		},
		"CheckCategoryAccess": func(ctx context.Context, id string) error {
			res, err := c.CheckCategoryAccess(ctx, &categoriesv1.CheckCategoryAccessRequest{CategoryId: id})
			if err == nil && res.GetUserId() == "" {
				return errors.New("access allowed for no one")
			}
			return err
		},
	}
	// + CreateCategory, GetWebsiteScore, and RunWeeklyReview (admins only,
	// owners and uplifters refused: TestWeeklyReviewOfAnUnreadableSiteStillEmails).
	if len(rpcs)+3 != len(categoriesv1.CategoriesService_ServiceDesc.Methods) {
		t.Fatalf("matrix covers %d RPCs, service has %d", len(rpcs)+3, len(categoriesv1.CategoriesService_ServiceDesc.Methods))
	}
	callers := []struct {
		name string
		ctx  context.Context
		want codes.Code
	}{
		{"anonymous", context.Background(), codes.Unauthenticated},
		{"signed-out marker", as("unauthed"), codes.Unauthenticated},
		{"another user", as(otherTok), codes.PermissionDenied},
		{"owner", as(ownerTok), codes.OK},
		{"uplifter", as(uplifterTok), codes.OK},
	}
	for name, call := range rpcs {
		for _, who := range callers {
			t.Run(name+"/"+who.name, func(t *testing.T) {
				if err := call(who.ctx, cat); status.Code(err) != who.want {
					t.Fatalf("code = %v, want %v (%v)", status.Code(err), who.want, err)
				}
			})
		}
		t.Run(name+"/unknown category", func(t *testing.T) {
			if err := call(as(ownerTok), uuid.NewString()); status.Code(err) != codes.NotFound {
				t.Fatalf("code = %v, want NotFound", status.Code(err))
			}
		})
	}
	// The access named is the caller's own: the gateway counts streams per
	// user, and the callers' caches forget a user's answers by it.
	owners, _ := c.CheckCategoryAccess(as(ownerTok), &categoriesv1.CheckCategoryAccessRequest{CategoryId: cat})
	uplifters, _ := c.CheckCategoryAccess(as(uplifterTok), &categoriesv1.CheckCategoryAccessRequest{CategoryId: cat})
	if owners.GetUserId() == uplifters.GetUserId() {
		t.Fatalf("the owner's and the uplifter's access both belong to %q", owners.GetUserId())
	}
	// CreateCategory needs a signed-in caller; GetWebsiteScore is public.
	if _, err := c.CreateCategory(context.Background(), &categoriesv1.CreateCategoryRequest{}); status.Code(err) != codes.Unauthenticated {
		t.Fatalf("anonymous CreateCategory: %v", err)
	}
	if _, err := c.GetWebsiteScore(context.Background(), &categoriesv1.GetWebsiteScoreRequest{Url: "good-store.test"}); err != nil {
		t.Fatalf("anonymous GetWebsiteScore: %v", err)
	}
}

// TestRealEngineReviewsALoopbackStore wires the real analysis engine (with
// the tests-only loopback allowance) to check the whole path with a store
// served by the test itself.
func TestRealEngineReviewsALoopbackStore(t *testing.T) {
	t.Parallel()
	store := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><html><head><title>Clay &amp; Co mugs</title></head>
<body><h1>Hand-made mugs</h1><p>Stoneware mugs from 18 EUR.</p><a href="/contact">Contact</a></body></html>`))
	}))
	t.Cleanup(store.Close)
	h := startWith(t, realEngine(t))
	cat, tok := h.owner(t)
	ctx := as(tok)
	if _, err := h.client.UpdateContentGenerationParams(ctx, &categoriesv1.UpdateContentGenerationParamsRequest{
		CategoryId: cat, SiteUrl: proto.String(store.URL),
	}); err != nil {
		t.Fatal(err)
	}
	var rep *categoriesv1.Report
	eventually(t, func() bool {
		r, err := h.client.GetCurrentReport(ctx, &categoriesv1.GetCurrentReportRequest{CategoryId: cat})
		rep = r.GetReport()
		return err == nil && rep.GetStatus() != categoriesv1.ReportStatus_REPORT_STATUS_GENERATING
	})
	if rep.GetStatus() != categoriesv1.ReportStatus_REPORT_STATUS_READY || len(rep.GetChecks()) == 0 ||
		len(rep.GetFindings()) == 0 || rep.GetSummary() == "" || rep.GetBand() == "" {
		t.Fatalf("report %v", rep)
	}
	// Each way a website is refused says which it was, on the siteUrl
	// field: not a web address (the spec's message), no such domain, a
	// private address, and a site that is there but cannot be read.
	for _, c := range []struct{ site, want string }{
		{"my tea shop", domain.UnreadableSiteMessage},
		{"https://no-such-store.invalid/", domain.SiteNotFoundMessage},
		{"http://10.0.0.1/", domain.SitePrivateMessage},
		{"http://192.168.1.20:8080/", domain.SitePrivateMessage},
		{"http://127.0.0.1:1/", "We could not read that website: its server refused the connection. Please check the address and try again."},
	} {
		_, err := h.client.UpdateContentGenerationParams(ctx, &categoriesv1.UpdateContentGenerationParamsRequest{
			CategoryId: cat, SiteUrl: proto.String(c.site),
		})
		st := status.Convert(err)
		if st.Code() != codes.InvalidArgument || st.Message() != c.want || fieldOf(st) != "siteUrl" {
			t.Errorf("%q: %v (field %q), want %q", c.site, err, fieldOf(st), c.want)
		}
	}
}

// realEngine is the review service (reviewtest, the real one on a
// loopback port) reached as categories reaches it; the reviews are the
// real worker's (startDeps). Both may read the tests' loopback sites.
func realEngine(t *testing.T) engine.Engine {
	t.Helper()
	conn, err := grpcclient.New(reviewtest.Start(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return engine.New(conn)
}

// fieldOf is the field a status's BadRequest detail names, "" when none.
func fieldOf(st *status.Status) string {
	for _, d := range st.Details() {
		if br, ok := d.(*errdetails.BadRequest); ok && len(br.GetFieldViolations()) > 0 {
			return br.GetFieldViolations()[0].GetField()
		}
	}
	return ""
}
