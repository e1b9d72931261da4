package service_test

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"uplift.dev/platform/grpcserver"
	"uplift.dev/platform/service"
	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"
	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"

	ga4sim "uplift.dev/ga4sim/sim"
	"uplift.dev/platform/firebasetest"
	"uplift.dev/platform/natstest"
	"uplift.dev/platform/servicetest"
	"uplift.dev/shopifysim/sim"
	"uplift.dev/stores/internal/ordercsv/ordercsvtest"
	stores "uplift.dev/stores/internal/service"
	"uplift.dev/stores/migrations"
)

const (
	testAPIKey    = "test-api-key"
	testAPISecret = "shpss_test_secret"
	// testGoogleClient and testGoogleSecret are the service's Google OAuth
	// client in tests; testTokenKey seals tokens at rest.
	testGoogleClient = "test-client.apps.googleusercontent.com"
	testGoogleSecret = "GOCSPX-test-secret"
	testTokenKey     = "test-only-shopify-token-key-32b!"
)

// fakeCategories answers CheckCategoryAccess as the categories service would: the
// forwarded token must own the category.
type fakeCategories struct {
	categoriesv1.UnimplementedCategoriesServiceServer
	mu     sync.Mutex
	owners map[string]string // category id → bearer token
}

func (f *fakeCategories) CheckCategoryAccess(ctx context.Context, r *categoriesv1.CheckCategoryAccessRequest) (*categoriesv1.CheckCategoryAccessResponse, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	auth := md.Get("authorization")
	f.mu.Lock()
	defer f.mu.Unlock()
	owner, ok := f.owners[r.GetCategoryId()]
	switch {
	case !ok:
		return nil, status.Error(codes.NotFound, "Category not found.")
	case len(auth) == 0 || auth[0] != "Bearer "+owner:
		return nil, status.Error(codes.PermissionDenied, "not yours")
	}
	return &categoriesv1.CheckCategoryAccessResponse{UserId: "u-" + auth[0]}, nil
}

type harness struct {
	t *testing.T
	// gwURL is the stand-in gateway (webhooks, WooCommerce's key callback).
	gwURL  string
	client storesv1.StoresServiceClient
	sim    *sim.Server
	simURL string
	cats   *fakeCategories
	tokens map[string]string // uid → ID token
	// js is the NATS admin's JetStream, to read the events the service
	// published (reading the stream is not a service's right), and db the
	// service's own pool, to look at its outbox.
	js jetstream.JetStream
	db *pgxpool.Pool
	// ga4 is the Google Analytics 4 simulator, in-process, on ga4URL.
	ga4    *ga4sim.Server
	ga4URL string
}

// newHarness runs the stores service on its own database with a fake
// categories service, the Shopify simulator in-process and a small stand-in
// for the gateway's webhook route.
func newHarness(t *testing.T, simOpts sim.Options) *harness {
	t.Helper()
	h := &harness{t: t, cats: &fakeCategories{owners: map[string]string{}}, tokens: map[string]string{}}

	// categories
	catsAddr := servicetest.Stub(t, func(g *grpc.Server) { categoriesv1.RegisterCategoriesServiceServer(g, h.cats) })

	// the gateway's webhook route, forwarding to the service under test
	// Set once the service runs; atomic because webhooks arrive over
	// sockets, which the race detector does not see as synchronisation.
	var storesClient atomic.Pointer[storesv1.StoresServiceClient]
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/connections/woocommerce/callback" {
			wooKeyCallback(*storesClient.Load(), w, r)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/webhooks/woocommerce/") {
			wooWebhook(*storesClient.Load(), w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		hd := r.Header
		_, err := (*storesClient.Load()).HandleShopifyWebhook(r.Context(), &storesv1.HandleShopifyWebhookRequest{
			Payload: body, Hmac: hd.Get("X-Shopify-Hmac-Sha256"), Topic: hd.Get("X-Shopify-Topic"),
			ShopDomain: hd.Get("X-Shopify-Shop-Domain"), WebhookId: hd.Get("X-Shopify-Webhook-Id"),
			EventId: hd.Get("X-Shopify-Event-Id"),
		})
		switch status.Code(err) {
		case codes.OK:
			w.WriteHeader(http.StatusOK)
		case codes.Unauthenticated:
			w.WriteHeader(http.StatusUnauthorized)
		default:
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	t.Cleanup(gw.Close)
	h.gwURL = gw.URL

	// Shopify
	simOpts.APIKey, simOpts.APISecret = testAPIKey, testAPISecret
	// Compliance webhooks are app-level settings: they go to the gateway route.
	simOpts.ComplianceURL = gw.URL
	h.sim = sim.New(simOpts)
	simSrv := httptest.NewServer(h.sim.Handler())
	t.Cleanup(simSrv.Close)
	t.Cleanup(h.sim.Close)
	h.sim.SetBaseURL(simSrv.URL)
	h.simURL = simSrv.URL

	// Google: the GA4 simulator with the service's OAuth client, on the
	// same clock; consent is given on its page (ga4Consent).
	h.ga4 = ga4sim.New(ga4sim.Options{ClientID: testGoogleClient, ClientSecret: testGoogleSecret, Clock: simOpts.Clock})
	ga4Srv := httptest.NewServer(h.ga4.Handler())
	t.Cleanup(ga4Srv.Close)
	h.ga4URL = ga4Srv.URL

	key := base64.StdEncoding.EncodeToString([]byte(testTokenKey))
	cfg := &stores.Settings{Base: servicetest.Base(t), CategoriesAddr: catsAddr,
		PublicAPIURL: gw.URL, WebURL: "http://web.test", ShopifyAPIKey: testAPIKey, ShopifyAPISecret: testAPISecret,
		ShopifyAPIBase: simSrv.URL, ShopifyAPIVersion: "2026-10", TokenKey: key,
		SyncPoll: 200 * time.Millisecond, SweepEvery: time.Hour, WooCommerceLocal: true,
		GoogleClientID: testGoogleClient, GoogleClientSecret: testGoogleSecret, GoogleAccountsURL: ga4Srv.URL,
		GoogleOAuthURL: ga4Srv.URL, GA4AdminURL: ga4Srv.URL, GA4DataURL: ga4Srv.URL, GA4RefreshEvery: time.Hour}
	wire := stores.Wire(cfg)
	if simOpts.Clock != nil { // the shop and the service on one clock
		wire = func(ctx context.Context, rt *service.Runtime) (grpcserver.Options, []func(context.Context) error, error) {
			rt.Clock = simOpts.Clock
			return stores.Wire(cfg)(ctx, rt)
		}
	}
	conn, rt := servicetest.Run(t, "stores", cfg.Base, migrations.FS, wire)
	h.client = storesv1.NewStoresServiceClient(conn)
	h.js, h.db = natstest.Admin(t, cfg.NATSURL), rt.Pool
	storesClient.Store(&h.client)
	return h
}

// owner signs up a user owning a new category and returns both.
func (h *harness) owner() (ctx context.Context, categoryID string) {
	h.t.Helper()
	uid := "u-" + uuid.NewString()
	id := firebasetest.SignInAs(h.t, uid, nil)
	categoryID = uuid.NewString()
	h.cats.mu.Lock()
	h.cats.owners[categoryID] = id
	h.cats.mu.Unlock()
	return metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+id), categoryID
}

func corpusCSV(t *testing.T) string {
	t.Helper()
	path, err := ordercsvtest.CorpusExport()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the real order export is missing (%v): it is a required fixture", err)
	}
	return string(b)
}

func TestImportOrdersFromTheRealExport(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	ctx, cat := h.owner()
	csv := corpusCSV(t)

	res, err := h.client.ImportOrders(ctx, &storesv1.ImportOrdersRequest{CategoryId: cat, Format: "shopify-orders-csv", Csv: csv})
	if err != nil {
		t.Fatal(err)
	}
	if res.GetOrders() != 51 || res.GetCurrency() != "INR" || res.GetFirstDay() != "2025-12-06" || res.GetLastDay() != "2025-12-06" {
		t.Fatalf("import = %v", res)
	}
	check := func() {
		m, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: "2025-12-01", To: "2025-12-10"})
		if err != nil {
			t.Fatal(err)
		}
		if len(m.GetDays()) != 10 || m.GetCurrency() != "INR" || m.GetSource() != "import" || m.GetTimezone() != "-05:00" {
			t.Fatalf("metrics header = %d days, %q, %q, %q", len(m.GetDays()), m.GetCurrency(), m.GetSource(), m.GetTimezone())
		}
		tot := m.GetTotals()
		if tot.GetOrders() != 51 || tot.GetGrossSales() != "585942.00" || tot.GetDiscounts() != "0.00" || tot.GetNetSales() != "585942.00" {
			t.Fatalf("totals = %v", tot)
		}
		if tot.Sessions != nil || tot.ConversionRate != nil {
			t.Fatalf("sessions from an export must be not available, got %v / %v", tot.Sessions, tot.ConversionRate)
		}
		day := m.GetDays()[5]
		if day.GetDate() != "2025-12-06" || day.GetNetSales() != "585942.00" {
			t.Fatalf("2025-12-06 = %v", day)
		}
		if empty := m.GetDays()[0]; empty.GetOrders() != 0 || empty.GetTotalSales() != "0.00" || empty.AverageOrderValue != nil {
			t.Fatalf("an empty day = %v", empty)
		}
	}
	check()
	// The same file again changes nothing.
	if _, err := h.client.ImportOrders(ctx, &storesv1.ImportOrdersRequest{CategoryId: cat, Format: "shopify-orders-csv", Csv: csv}); err != nil {
		t.Fatal(err)
	}
	check()
	top, err := h.client.GetTopProducts(ctx, &storesv1.GetTopProductsRequest{CategoryId: cat, From: "2025-12-06", To: "2025-12-06", Limit: 3})
	if err != nil || len(top.GetProducts()) != 3 || top.GetProducts()[0].GetNetSales() < top.GetProducts()[1].GetNetSales() && len(top.GetProducts()[0].GetNetSales()) <= len(top.GetProducts()[1].GetNetSales()) {
		t.Fatalf("top products = %v, %v", top, err)
	}
	conns, err := h.client.GetConnections(ctx, &storesv1.GetConnectionsRequest{CategoryId: cat})
	if err != nil || conns.GetLastImport().GetOrders() != 51 || conns.GetShopify().GetStatus() != "NOT_CONNECTED" {
		t.Fatalf("connections = %v, %v", conns, err)
	}
}

// One metrics request answers what the Analytics page shows: the range, the
// totals of as many days just before it and the range's best products, the
// same as the separate calls give; a store without numbers gets neither
// extra, and a ranking out of bounds is refused.
func TestOneMetricsRequestCarriesThePeriodBeforeAndTheBestProducts(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	ctx, cat := h.owner()
	empty, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: "2025-12-07", To: "2025-12-08", WithPrevious: true, TopProducts: 3})
	if err != nil || empty.GetSource() != "none" || empty.PreviousTotals != nil || empty.GetPreviousFrom() != "" || len(empty.GetTopProducts()) != 0 {
		t.Fatalf("a store without numbers: %v, %v", empty, err)
	}
	if _, err := h.client.ImportOrders(ctx, &storesv1.ImportOrdersRequest{CategoryId: cat, Format: "shopify-orders-csv", Csv: corpusCSV(t)}); err != nil {
		t.Fatal(err)
	}
	// Every order of the export is on 6 Dec: the two days after it compare
	// with 5 and 6 Dec, which hold them all.
	after, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: "2025-12-07", To: "2025-12-08", WithPrevious: true, TopProducts: 3})
	if err != nil {
		t.Fatal(err)
	}
	if after.GetPreviousFrom() != "2025-12-05" || after.GetPreviousTo() != "2025-12-06" ||
		after.GetPreviousTotals().GetOrders() != 51 || after.GetPreviousTotals().GetNetSales() != "585942.00" ||
		after.GetPreviousTotals().GetDate() != "" {
		t.Errorf("the period before 7–8 Dec: %s – %s, %v", after.GetPreviousFrom(), after.GetPreviousTo(), after.GetPreviousTotals())
	}
	if after.GetTotals().GetOrders() != 0 || len(after.GetTopProducts()) != 0 {
		t.Errorf("7–8 Dec: %d orders, %d top products; want none", after.GetTotals().GetOrders(), len(after.GetTopProducts()))
	}
	day, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: "2025-12-06", To: "2025-12-06", WithPrevious: true, TopProducts: 3})
	if err != nil {
		t.Fatal(err)
	}
	top, err := h.client.GetTopProducts(ctx, &storesv1.GetTopProductsRequest{CategoryId: cat, From: "2025-12-06", To: "2025-12-06", Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(day.GetTopProducts()) != 3 {
		t.Fatalf("6 Dec: %d top products, want 3", len(day.GetTopProducts()))
	}
	for i, p := range day.GetTopProducts() {
		if want := top.GetProducts()[i]; p.GetTitle() != want.GetTitle() || p.GetNetSales() != want.GetNetSales() || p.GetQuantity() != want.GetQuantity() {
			t.Errorf("top product %d: %v, GetTopProducts says %v", i, p, want)
		}
	}
	if day.GetPreviousFrom() != "2025-12-05" || day.GetPreviousTotals().GetOrders() != 0 {
		t.Errorf("the day before 6 Dec: %s, %d orders", day.GetPreviousFrom(), day.GetPreviousTotals().GetOrders())
	}
	// As many days as the range, across a leap day.
	march, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: "2024-03-01", To: "2024-03-31", WithPrevious: true})
	if err != nil || march.GetPreviousFrom() != "2024-01-30" || march.GetPreviousTo() != "2024-02-29" {
		t.Errorf("the period before March 2024: %s – %s, %v; want 2024-01-30 – 2024-02-29", march.GetPreviousFrom(), march.GetPreviousTo(), err)
	}
	plain, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: "2025-12-06", To: "2025-12-06"})
	if err != nil || plain.PreviousTotals != nil || len(plain.GetTopProducts()) != 0 {
		t.Errorf("without extras: %v, %v; want neither", plain, err)
	}
	for _, n := range []int32{-1, 51} {
		_, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: "2025-12-06", To: "2025-12-06", TopProducts: n})
		if status.Code(err) != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), "topProducts") {
			t.Errorf("topProducts %d: %v, want InvalidArgument naming it", n, err)
		}
	}
}

func TestABadExportImportsNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	ctx, cat := h.owner()
	csv := corpusCSV(t)
	lines := strings.Split(csv, "\n")
	// Row 30 (as a spreadsheet numbers it) gets a date that cannot be read.
	lines[29] = strings.Replace(lines[29], "2025-12-06 ", "2025-13-06 ", 1)
	_, err := h.client.ImportOrders(ctx, &storesv1.ImportOrdersRequest{CategoryId: cat, Format: "shopify-orders-csv", Csv: strings.Join(lines, "\n")})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), "Row 30") ||
		!strings.Contains(status.Convert(err).Message(), "Created at") {
		t.Fatalf("bad file: %v", err)
	}
	m, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: "2025-12-06", To: "2025-12-06"})
	if err != nil || m.GetSource() != "none" || m.GetTotals().GetOrders() != 0 {
		t.Fatalf("after a bad file: %v, %v", m, err)
	}
	for _, bad := range []*storesv1.ImportOrdersRequest{
		{CategoryId: cat, Format: "excel", Csv: csv},
		{CategoryId: cat, Format: "shopify-orders-csv", Csv: ""},
		{CategoryId: cat, Format: "shopify-orders-csv", Csv: "\x00\ufffd\ufffe not a csv"},
	} {
		if _, err := h.client.ImportOrders(ctx, bad); status.Code(err) != codes.InvalidArgument {
			t.Errorf("import %q…: %v, want InvalidArgument", bad.GetFormat(), err)
		}
	}
}

func TestOnlyTheOwnerReachesAStore(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	_, cat := h.owner()
	stranger, _ := h.owner()
	cases := map[string]struct {
		ctx  context.Context
		id   string
		want codes.Code
	}{
		"stranger":     {stranger, cat, codes.PermissionDenied},
		"unknown":      {stranger, uuid.NewString(), codes.NotFound},
		"malformed id": {stranger, "../etc", codes.InvalidArgument},
		"signed out":   {context.Background(), cat, codes.Unauthenticated},
	}
	for name, c := range cases {
		_, err := h.client.GetMetrics(c.ctx, &storesv1.GetMetricsRequest{CategoryId: c.id, From: "2026-01-01", To: "2026-01-02"})
		if status.Code(err) != c.want {
			t.Errorf("%s: GetMetrics = %v, want %v", name, err, c.want)
		}
		_, err = h.client.StartShopifyConnect(c.ctx, &storesv1.StartShopifyConnectRequest{CategoryId: c.id, Shop: "x.myshopify.com"})
		if status.Code(err) != c.want {
			t.Errorf("%s: StartShopifyConnect = %v, want %v", name, err, c.want)
		}
	}
}

func TestMetricsRangeIsValidated(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	ctx, cat := h.owner()
	for _, r := range [][2]string{{"2026-01-02", "2026-01-01"}, {"2026-1-1", "2026-01-02"}, {"2024-01-01", "2026-01-01"}, {"", ""}} {
		_, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: r[0], To: r[1]})
		if status.Code(err) != codes.InvalidArgument {
			t.Errorf("range %v: %v, want InvalidArgument", r, err)
		}
	}
}

// connect drives the OAuth dance the way the browser and the gateway do.
func (h *harness) connect(ctx context.Context, cat, shop string) string {
	h.t.Helper()
	start, err := h.client.StartShopifyConnect(ctx, &storesv1.StartShopifyConnectRequest{CategoryId: cat, Shop: shop})
	if err != nil {
		h.t.Fatal(err)
	}
	u, _ := url.Parse(start.GetRedirectUrl())
	state := u.Query().Get("state")
	auth, err := h.client.AuthorizeShopify(context.Background(), &storesv1.AuthorizeShopifyRequest{State: state})
	if err != nil {
		h.t.Fatal(err)
	}
	callback := h.followToCallback(auth.GetAuthorizeUrl())
	done, err := h.client.CompleteShopifyConnect(context.Background(), &storesv1.CompleteShopifyConnectRequest{
		RawQuery: callback.RawQuery, BrowserState: state})
	if err != nil {
		h.t.Fatal(err)
	}
	return done.GetRedirectUrl()
}

// followToCallback asks Shopify's authorize page and returns the callback
// address it redirects to, without following it.
func (h *harness) followToCallback(authorizeURL string) *url.URL {
	h.t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(authorizeURL)
	if err != nil {
		h.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound && resp.StatusCode != http.StatusSeeOther {
		h.t.Fatalf("authorize answered %d", resp.StatusCode)
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		h.t.Fatal(err)
	}
	return loc
}

func (h *harness) waitSynced(ctx context.Context, cat string) *storesv1.ShopifyConnection {
	h.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		c, err := h.client.GetConnections(ctx, &storesv1.GetConnectionsRequest{CategoryId: cat})
		if err != nil {
			h.t.Fatal(err)
		}
		sc := c.GetShopify()
		if sc.GetSync().GetPhase() == "DONE" {
			return sc
		}
		if sc.GetSync().GetPhase() == "FAILED" {
			h.t.Fatalf("sync failed: %s", sc.GetSync().GetError())
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("sync did not finish: %v", sc)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
