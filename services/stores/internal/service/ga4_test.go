package service_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	ga4sim "uplift.dev/ga4sim/sim"
	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"
	"uplift.dev/shopifysim/sim"
	"uplift.dev/stores/internal/adapters/sealer"
)

const ga4User = "owner@hill-teas.example"

// ga4Property seeds the simulator with the Google user, an account and a
// property in zone with days; it returns the property id.
func ga4Property(t *testing.T, h *harness, id, zone string, days []ga4sim.Day) string {
	t.Helper()
	if err := h.ga4.CreateUser(ga4User); err != nil && !strings.Contains(err.Error(), "exists") {
		t.Fatal(err)
	}
	acct := "9" + id
	if err := h.ga4.CreateAccount(ga4sim.AccountSpec{ID: acct, DisplayName: "Hill Teas " + id, Users: []string{ga4User}}); err != nil {
		t.Fatal(err)
	}
	if err := h.ga4.CreateProperty(ga4sim.PropertySpec{ID: id, Account: acct, DisplayName: "hillteas.example " + id,
		TimeZone: zone, CurrencyCode: "USD"}); err != nil {
		t.Fatal(err)
	}
	if err := h.ga4.SetDays(id, days); err != nil {
		t.Fatal(err)
	}
	return id
}

// ga4Start starts a connection and follows the gateway's authorize route
// as the gateway would: it returns the state (the cookie's value) and
// Google's consent URL.
func ga4Start(t *testing.T, h *harness, ctx context.Context, cat string) (state, consent string) {
	t.Helper()
	start, err := h.client.StartGA4Connect(ctx, &storesv1.StartGA4ConnectRequest{CategoryId: cat})
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(start.GetRedirectUrl())
	if err != nil || u.Path != "/connections/ga4/authorize" || !strings.HasPrefix(start.GetRedirectUrl(), h.gwURL) {
		t.Fatalf("start redirect %q", start.GetRedirectUrl())
	}
	state = u.Query().Get("state")
	auth, err := h.client.AuthorizeGA4(context.Background(), &storesv1.AuthorizeGA4Request{State: state})
	if err != nil {
		t.Fatal(err)
	}
	return state, auth.GetAuthorizeUrl()
}

// ga4Consent answers Google's consent page as the user would (allow with
// the scopes ticked, or deny) and returns the callback Google redirects to.
func ga4Consent(t *testing.T, consent, decision string, scopes ...string) *url.URL {
	t.Helper()
	form := url.Values{"decision": {decision}, "user": {ga4User}, "grant_scope": scopes}
	res, err := noFollow.PostForm(consent, form)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusFound {
		t.Fatalf("consent answered %d", res.StatusCode)
	}
	u, err := url.Parse(res.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	return u
}

const readonly = "https://www.googleapis.com/auth/analytics.readonly"

// ga4Connect runs the whole flow and picks property with source.
func ga4Connect(t *testing.T, h *harness, ctx context.Context, cat, property, source string) *storesv1.GA4Connection {
	t.Helper()
	state, consent := ga4Start(t, h, ctx, cat)
	cb := ga4Consent(t, consent, "allow", readonly)
	done, err := h.client.CompleteGA4Connect(context.Background(), &storesv1.CompleteGA4ConnectRequest{RawQuery: cb.RawQuery, BrowserState: state})
	if err != nil || done.GetRedirectUrl() != "http://web.test/connections?ga4=connected" {
		t.Fatalf("callback: %v %v", done, err)
	}
	sel, err := h.client.SelectGA4Property(ctx, &storesv1.SelectGA4PropertyRequest{CategoryId: cat, PropertyId: property, SessionsSource: source})
	if err != nil {
		t.Fatal(err)
	}
	return sel.GetGa4()
}

// ga4WaitRefreshed waits until a refresh after since has finished (or
// failed: the error is set).
func ga4WaitRefreshed(t *testing.T, h *harness, ctx context.Context, cat string, since time.Time) *storesv1.GA4Connection {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := h.client.GetConnections(ctx, &storesv1.GetConnectionsRequest{CategoryId: cat})
		if err != nil {
			t.Fatal(err)
		}
		g := c.GetGa4()
		if g.GetError() != "" || (g.GetLastRefreshedAt() != nil && g.GetLastRefreshedAt().AsTime().After(since)) {
			return g
		}
		if time.Now().After(deadline) {
			t.Fatalf("no refresh: %v", g)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// openToken reads the sealed refresh token back, as only the service can.
func openToken(t *testing.T, h *harness, cat string) string {
	t.Helper()
	var sealed []byte
	if err := h.db.QueryRow(context.Background(), `SELECT refresh_token FROM ga4_connections WHERE category_id = $1`, cat).Scan(&sealed); err != nil {
		t.Fatal(err)
	}
	s, err := sealer.New(base64.StdEncoding.EncodeToString([]byte(testTokenKey)))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := s.Open(sealed)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(sealed), tok) {
		t.Fatal("the refresh token is stored in clear")
	}
	return tok
}

// googleToken posts to the simulator's token endpoint as a client would.
func googleToken(t *testing.T, h *harness, form url.Values) (int, string) {
	t.Helper()
	form.Set("client_id", testGoogleClient)
	form.Set("client_secret", testGoogleSecret)
	res, err := http.PostForm(h.ga4URL+"/token", form)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body struct {
		Error string `json:"error"`
	}
	_ = json.NewDecoder(res.Body).Decode(&body)
	return res.StatusCode, body.Error
}

// TestConnectGA4AndSeeConversion walks the whole flow against the
// simulator: PKCE S256, offline access and the read-only scope asked; the
// refresh token sealed; the properties listed across pages; a New York
// property's days (across its DST change, with an empty day GA4 leaves
// out) stored as GA4 dates them; and Analytics' conversion is GA4's
// purchases ÷ GA4's sessions, with GA4's words.
func TestConnectGA4AndSeeConversion(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	ctx, cat := h.owner()
	// The week around New York's DST end (2026-11-01, a 25-hour day):
	// GA4 reports by its date, so the long day is one day.
	prop := ga4Property(t, h, "420000101", "America/New_York", []ga4sim.Day{
		{Date: "2026-10-30", Sessions: 400, Purchases: 10},
		{Date: "2026-10-31", Sessions: 500, Purchases: 12},
		{Date: "2026-11-01", Sessions: 625, Purchases: 25},
		// 2026-11-02 has no data at all: GA4 leaves it out; it had none.
		{Date: "2026-11-03", Sessions: 300, Purchases: 3, Refunds: 2},
	})
	// More accounts than one page of accountSummaries holds (200).
	for i := range 205 {
		id := fmt.Sprintf("%d", 430000000+i)
		if err := h.ga4.CreateAccount(ga4sim.AccountSpec{ID: "8" + id, DisplayName: "Other " + id, Users: []string{ga4User}}); err != nil {
			t.Fatal(err)
		}
		if err := h.ga4.CreateProperty(ga4sim.PropertySpec{ID: id, Account: "8" + id, DisplayName: "other " + id}); err != nil {
			t.Fatal(err)
		}
	}

	state, consent := ga4Start(t, h, ctx, cat)
	q, _ := url.Parse(consent)
	p := q.Query()
	if p.Get("code_challenge_method") != "S256" || len(p.Get("code_challenge")) != 43 || p.Get("access_type") != "offline" ||
		p.Get("scope") != readonly || p.Get("state") != state || p.Get("prompt") != "consent" ||
		p.Get("redirect_uri") != h.gwURL+"/connections/ga4/callback" || p.Get("client_id") != testGoogleClient {
		t.Fatalf("authorize query %v", p)
	}
	cb := ga4Consent(t, consent, "allow", readonly)
	done, err := h.client.CompleteGA4Connect(context.Background(), &storesv1.CompleteGA4ConnectRequest{RawQuery: cb.RawQuery, BrowserState: state})
	if err != nil || done.GetRedirectUrl() != "http://web.test/connections?ga4=connected" {
		t.Fatalf("callback: %v %v", done, err)
	}
	refresh := openToken(t, h, cat)
	if !strings.HasPrefix(refresh, "1//") {
		t.Errorf("refresh token %q", refresh)
	}
	conns, err := h.client.GetConnections(ctx, &storesv1.GetConnectionsRequest{CategoryId: cat})
	if err != nil || conns.GetGa4().GetStatus() != "PICK_PROPERTY" {
		t.Fatalf("after consent %v %v", conns.GetGa4(), err)
	}
	list, err := h.client.ListGA4Properties(ctx, &storesv1.ListGA4PropertiesRequest{CategoryId: cat})
	if err != nil || len(list.GetProperties()) != 206 {
		t.Fatalf("properties: %d %v", len(list.GetProperties()), err)
	}
	if _, err := h.client.SelectGA4Property(ctx, &storesv1.SelectGA4PropertyRequest{CategoryId: cat, PropertyId: "999999"}); status.Code(err) != codes.InvalidArgument {
		t.Errorf("a property the user cannot read: %v", err)
	}
	if _, err := h.client.SelectGA4Property(ctx, &storesv1.SelectGA4PropertyRequest{CategoryId: cat, PropertyId: "x1"}); status.Code(err) != codes.InvalidArgument {
		t.Errorf("a bad property id: %v", err)
	}
	before := time.Now()
	sel, err := h.client.SelectGA4Property(ctx, &storesv1.SelectGA4PropertyRequest{CategoryId: cat, PropertyId: prop})
	if err != nil || sel.GetGa4().GetStatus() != "CONNECTED" || sel.GetGa4().GetSessionsSource() != "ga4" {
		t.Fatalf("select: %v %v", sel, err)
	}
	g := ga4WaitRefreshed(t, h, ctx, cat, before)
	if g.GetError() != "" || g.GetTimezone() != "America/New_York" || g.GetPropertyName() != "hillteas.example "+prop || g.GetSampled() || g.GetThresholded() {
		t.Fatalf("refreshed %v", g)
	}

	m, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: "2026-10-30", To: "2026-11-03"})
	if err != nil {
		t.Fatal(err)
	}
	if m.GetSessionsSource() != "ga4" || m.GetGa4Property() != "hillteas.example "+prop {
		t.Fatalf("metrics source %q %q", m.GetSessionsSource(), m.GetGa4Property())
	}
	want := map[string][2]int32{"2026-10-30": {400, 10}, "2026-10-31": {500, 12}, "2026-11-01": {625, 25}, "2026-11-02": {0, 0}, "2026-11-03": {300, 3}}
	for _, d := range m.GetDays() {
		w := want[d.GetDate()]
		if d.Sessions == nil || d.GetSessions().GetValue() != w[0] {
			t.Errorf("%s: sessions %v, want %d", d.GetDate(), d.Sessions, w[0])
		}
	}
	// 25 purchases in 625 sessions is 4.00 %; ecommercePurchases, so the
	// refunds on 11-03 do not count (transactions would add them).
	if d := m.GetDays()[2]; d.GetConversionRate().GetValue() != "4.00" {
		t.Errorf("2026-11-01 conversion %v", d.ConversionRate)
	}
	if d := m.GetDays()[4]; d.GetConversionRate().GetValue() != "1.00" {
		t.Errorf("2026-11-03 conversion %v (refunds counted?)", d.ConversionRate)
	}
	// Totals: 50 purchases ÷ 1825 sessions = 2.74 %.
	if tot := m.GetTotals(); tot.GetSessions().GetValue() != 1825 || tot.GetConversionRate().GetValue() != "2.74" || m.GetGa4Purchases().GetValue() != 50 {
		t.Errorf("totals %v, purchases %v", tot, m.GetGa4Purchases())
	}
	// A range reaching before GA4's first day has no conversion: never an estimate.
	early, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: "2026-10-20", To: "2026-11-03"})
	if err != nil || early.GetTotals().ConversionRate != nil {
		t.Errorf("before GA4's data: %v %v", early.GetTotals(), err)
	}
}

// TestGA4CallbackTampering: the callback is proven by the one-use state
// bound to the browser and by PKCE, so a callback in another browser, a
// replay, an unknown state, a denied consent, a consent without the
// analytics scope and a stolen code without the verifier all store nothing.
func TestGA4CallbackTampering(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	ctx, cat := h.owner()
	ga4Property(t, h, "420000201", "Europe/London", nil)
	complete := func(raw, browser string) string {
		t.Helper()
		done, err := h.client.CompleteGA4Connect(context.Background(), &storesv1.CompleteGA4ConnectRequest{RawQuery: raw, BrowserState: browser})
		if err != nil {
			t.Fatal(err)
		}
		u, _ := url.Parse(done.GetRedirectUrl())
		return u.Query().Get("ga4") + ": " + u.Query().Get("message")
	}
	connected := func() string {
		c, err := h.client.GetConnections(ctx, &storesv1.GetConnectionsRequest{CategoryId: cat})
		if err != nil {
			t.Fatal(err)
		}
		return c.GetGa4().GetStatus()
	}

	// Another browser (no cookie, or another state's).
	state, consent := ga4Start(t, h, ctx, cat)
	cb := ga4Consent(t, consent, "allow", readonly)
	if got := complete(cb.RawQuery, ""); !strings.Contains(got, "another browser") {
		t.Errorf("no cookie: %s", got)
	}
	if got := complete(cb.RawQuery, strings.Repeat("0", 32)); !strings.Contains(got, "another browser") {
		t.Errorf("another state's cookie: %s", got)
	}
	// A state tampered with in the callback, with the tampered cookie too: unknown.
	forged := strings.Replace(cb.RawQuery, "state="+state, "state="+strings.Repeat("f", 32), 1)
	if got := complete(forged, strings.Repeat("f", 32)); !strings.Contains(got, "expired or was already used") {
		t.Errorf("unknown state: %s", got)
	}
	// The real one connects once; its replay finds the state used.
	if got := complete(cb.RawQuery, state); got != "connected: " {
		t.Fatalf("the real callback: %s", got)
	}
	if got := complete(cb.RawQuery, state); !strings.Contains(got, "expired or was already used") {
		t.Errorf("replay: %s", got)
	}
	if _, err := h.client.AuthorizeGA4(context.Background(), &storesv1.AuthorizeGA4Request{State: state}); status.Code(err) != codes.NotFound {
		t.Errorf("authorize with a used state: %v", err)
	}
	if connected() != "PICK_PROPERTY" {
		t.Fatalf("status %s", connected())
	}

	// Another category: denied consent and no analytics scope store nothing.
	ctx2, cat2 := h.owner()
	state, consent = ga4Start(t, h, ctx2, cat2)
	if got := complete(ga4Consent(t, consent, "deny").RawQuery, state); !strings.Contains(got, "did not allow Uplift") {
		t.Errorf("denied: %s", got)
	}
	state, consent = ga4Start(t, h, ctx2, cat2)
	if got := complete(ga4Consent(t, consent, "allow", "openid").RawQuery, state); got != "error: Google did not complete the connection. Please start again." &&
		!strings.Contains(got, "did not allow") {
		// The page offers only the scopes asked for; unticking all is access_denied.
		t.Errorf("no scopes: %s", got)
	}
	c2, _ := h.client.GetConnections(ctx2, &storesv1.GetConnectionsRequest{CategoryId: cat2})
	if c2.GetGa4().GetStatus() != "NOT_CONNECTED" {
		t.Errorf("refused consents connected: %v", c2.GetGa4())
	}

	// A code stolen from the callback cannot be redeemed without the
	// verifier only the service holds: Google checks it against the S256
	// challenge (and the code is spent by the try).
	_, consent = ga4Start(t, h, ctx2, cat2)
	code := ga4Consent(t, consent, "allow", readonly).Query().Get("code")
	if st, e := googleToken(t, h, url.Values{"grant_type": {"authorization_code"}, "code": {code},
		"redirect_uri": {h.gwURL + "/connections/ga4/callback"}, "code_verifier": {strings.Repeat("a", 43)}}); st != http.StatusBadRequest || e != "invalid_grant" {
		t.Errorf("a wrong verifier: %d %s", st, e)
	}
	_, consent = ga4Start(t, h, ctx2, cat2)
	code = ga4Consent(t, consent, "allow", readonly).Query().Get("code")
	if st, e := googleToken(t, h, url.Values{"grant_type": {"authorization_code"}, "code": {code},
		"redirect_uri": {h.gwURL + "/connections/ga4/callback"}}); st != http.StatusBadRequest || e != "invalid_grant" {
		t.Errorf("no verifier: %d %s", st, e)
	}

	// Someone else cannot start or read this business's GA4.
	if _, err := h.client.StartGA4Connect(ctx2, &storesv1.StartGA4ConnectRequest{CategoryId: cat}); status.Code(err) != codes.PermissionDenied {
		t.Errorf("another account starts: %v", err)
	}
	if _, err := h.client.ListGA4Properties(ctx2, &storesv1.ListGA4PropertiesRequest{CategoryId: cat}); status.Code(err) != codes.PermissionDenied {
		t.Errorf("another account lists: %v", err)
	}
	if _, err := h.client.ListGA4Properties(ctx2, &storesv1.ListGA4PropertiesRequest{CategoryId: cat2}); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("not connected: %v", err)
	}
}

// TestGA4RefreshQuotaSamplingRevoke: each refresh gets a fresh access
// token with the refresh token (expired access tokens do not matter);
// GA4's sampling and thresholding flags are shown and a withheld day is
// not taken for zero; RESOURCE_EXHAUSTED waits for the quota's window;
// Disconnect revokes the grant at Google and keeps the numbers; a token
// revoked at Google asks the owner to reconnect.
func TestGA4RefreshQuotaSamplingRevoke(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	ctx, cat := h.owner()
	// A property in Kolkata (UTC+05:30): its "today" runs ahead of UTC.
	kol, _ := time.LoadLocation("Asia/Kolkata")
	today := time.Now().In(kol)
	day := func(ago int) string { return today.AddDate(0, 0, -ago).Format("2006-01-02") }
	prop := ga4Property(t, h, "420000301", "Asia/Kolkata", []ga4sim.Day{
		{Date: day(3), Sessions: 200, Purchases: 4}, {Date: day(2), Sessions: 3, Purchases: 1},
		{Date: day(1), Sessions: 100, Purchases: 2}, {Date: day(0), Sessions: 50, Purchases: 1},
	})
	before := time.Now()
	ga4Connect(t, h, ctx, cat, prop, "")
	if g := ga4WaitRefreshed(t, h, ctx, cat, before); g.GetError() != "" || g.GetTimezone() != "Asia/Kolkata" {
		t.Fatalf("first refresh %v", g)
	}
	// Today in Kolkata is read too (the window ends on the property's today).
	m, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: day(3), To: day(0)})
	if err != nil || m.GetTotals().GetSessions().GetValue() != 353 || m.GetDays()[3].GetSessions().GetValue() != 50 {
		t.Fatalf("metrics %v %v", m.GetTotals(), err)
	}

	// Access tokens expire; the refresh token gets a new one each round.
	h.ga4.ExpireTokens()
	if err := h.ga4.SetQuality(prop, ga4sim.Quality{SampleRate: 0.5, ThresholdSessions: 10}); err != nil {
		t.Fatal(err)
	}
	before = time.Now()
	if _, err := h.client.SyncGA4(ctx, &storesv1.SyncGA4Request{CategoryId: cat}); err != nil {
		t.Fatal(err)
	}
	g := ga4WaitRefreshed(t, h, ctx, cat, before)
	if g.GetError() != "" || !g.GetSampled() || !g.GetThresholded() {
		t.Fatalf("after quality %v", g)
	}
	m, err = h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: day(3), To: day(0)})
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(m.GetGa4Notes(), " | ")
	if !strings.Contains(notes, "sampled") || !strings.Contains(notes, "thresholded") {
		t.Errorf("notes %q", notes)
	}
	// The thresholded day (3 sessions) was withheld in this refresh; the
	// earlier refresh's number for it stands, never a zero.
	if d := m.GetDays()[1]; d.GetSessions().GetValue() != 3 {
		t.Errorf("withheld day %v", d.Sessions)
	}

	// The quota: every report is RESOURCE_EXHAUSTED until the day's
	// window (midnight Pacific) rolls over.
	if err := h.ga4.ExhaustQuota(prop, "tokensPerDay"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.client.SyncGA4(ctx, &storesv1.SyncGA4Request{CategoryId: cat}); err != nil {
		t.Fatal(err)
	}
	g = ga4WaitRefreshed(t, h, ctx, cat, time.Now().Add(time.Hour))
	pt, _ := time.LoadLocation("America/Los_Angeles")
	n := time.Now().In(pt)
	midnight := time.Date(n.Year(), n.Month(), n.Day()+1, 0, 1, 0, 0, pt)
	if !strings.Contains(g.GetError(), "quota") || g.GetQuotaUntil() == nil || !g.GetQuotaUntil().AsTime().Equal(midnight) || g.GetStatus() != "CONNECTED" {
		t.Fatalf("quota %v (want until %v)", g, midnight)
	}
	var due time.Time
	if err := h.db.QueryRow(ctx, `SELECT refresh_due_at FROM ga4_connections WHERE category_id = $1`, cat).Scan(&due); err != nil || !due.Equal(midnight) {
		t.Errorf("next refresh %v %v", due, err)
	}

	// Disconnect revokes the grant at Google: the refresh token no longer
	// works there, the row no longer holds it, and the days stay.
	refresh := openToken(t, h, cat)
	if _, err := h.client.DisconnectGA4(ctx, &storesv1.DisconnectGA4Request{CategoryId: cat}); err != nil {
		t.Fatal(err)
	}
	if st, e := googleToken(t, h, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}}); st != http.StatusBadRequest || e != "invalid_grant" {
		t.Errorf("refresh after disconnect: %d %s", st, e)
	}
	var kept []byte
	var days int
	if err := h.db.QueryRow(ctx, `SELECT refresh_token, (SELECT count(*) FROM ga4_days WHERE category_id = $1) FROM ga4_connections WHERE category_id = $1`, cat).Scan(&kept, &days); err != nil || kept != nil || days != 4 {
		t.Errorf("after disconnect: token %v, %d days, %v", kept, days, err)
	}
	c, _ := h.client.GetConnections(ctx, &storesv1.GetConnectionsRequest{CategoryId: cat})
	if c.GetGa4().GetStatus() != "NOT_CONNECTED" {
		t.Errorf("after disconnect %v", c.GetGa4())
	}
	if _, err := h.client.DisconnectGA4(ctx, &storesv1.DisconnectGA4Request{CategoryId: cat}); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("disconnect twice: %v", err)
	}

	// Connected again, then revoked at Google (from the Google account's
	// security page): the next refresh asks the owner to reconnect. A
	// property of its own: the first one's quota is spent for the day, and
	// its error could be read before the revocation's.
	prop2 := ga4Property(t, h, "420000302", "Asia/Kolkata", []ga4sim.Day{{Date: day(1), Sessions: 100, Purchases: 2}})
	ctx3, cat3 := h.owner()
	ga4Connect(t, h, ctx3, cat3, prop2, "ga4")
	if g := ga4WaitRefreshed(t, h, ctx3, cat3, time.Time{}); g.GetError() != "" {
		t.Fatalf("connected again: %v", g)
	}
	res, err := http.PostForm(h.ga4URL+"/revoke", url.Values{"token": {openToken(t, h, cat3)}})
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("revoke at Google: %v %v", res, err)
	}
	res.Body.Close()
	if _, err := h.client.SyncGA4(ctx3, &storesv1.SyncGA4Request{CategoryId: cat3}); err != nil {
		t.Fatal(err)
	}
	g = ga4WaitRefreshed(t, h, ctx3, cat3, time.Now().Add(time.Hour))
	if g.GetStatus() != "REAUTHORIZE" || !strings.Contains(g.GetError(), "Reconnect") {
		t.Errorf("revoked at Google: %v", g)
	}
}

// TestAShopifyStoreChoosingGA4: a Shopify store sharing sessions keeps
// Shopify's when GA4 is connected, until the owner picks GA4; then
// conversion is GA4's, and Analytics says GA4's purchases differ from the
// shop's orders.
func TestAShopifyStoreChoosingGA4(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	now := time.Now()
	fixtureShop(t, h.sim, now)
	ctx, cat := h.owner()
	h.connect(ctx, cat, "fixture-goods")
	h.waitSynced(ctx, cat)
	ny, _ := time.LoadLocation("America/New_York")
	y := now.In(ny).AddDate(0, 0, -1)
	var days []ga4sim.Day
	for i := range 10 {
		// 12 purchases in all: GA4 misses none of the shop's orders here
		// but counts two extra (a tag firing twice), so the counts differ.
		days = append(days, ga4sim.Day{Date: y.AddDate(0, 0, -i).Format("2006-01-02"), Sessions: 100, Purchases: int64(1 + 2*(i/9))})
	}
	prop := ga4Property(t, h, "420000401", "America/New_York", days)
	from, to := y.AddDate(0, 0, -9).Format("2006-01-02"), y.Format("2006-01-02")

	before := time.Now()
	if g := ga4Connect(t, h, ctx, cat, prop, ""); g.GetSessionsSource() != "shopify" {
		t.Fatalf("a Shopify store's default source %v", g)
	}
	ga4WaitRefreshed(t, h, ctx, cat, before)
	m, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: from, To: to})
	if err != nil || m.GetSessionsSource() != "shopify" || m.GetTotals().GetSessions().GetValue() == 1000 || len(m.GetGa4Notes()) != 0 {
		t.Fatalf("Shopify's sessions kept: %q %v %v %v", m.GetSessionsSource(), m.GetTotals().GetSessions(), m.GetGa4Notes(), err)
	}

	sel, err := h.client.SelectGA4Property(ctx, &storesv1.SelectGA4PropertyRequest{CategoryId: cat, PropertyId: prop, SessionsSource: "ga4"})
	if err != nil || sel.GetGa4().GetSessionsSource() != "ga4" {
		t.Fatalf("choose GA4: %v %v", sel, err)
	}
	m, err = h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: from, To: to})
	if err != nil {
		t.Fatal(err)
	}
	if m.GetSessionsSource() != "ga4" || m.GetTotals().GetSessions().GetValue() != 1000 || m.GetTotals().GetConversionRate().GetValue() != "1.20" {
		t.Fatalf("GA4's sessions: %q %v", m.GetSessionsSource(), m.GetTotals())
	}
	notes := strings.Join(m.GetGa4Notes(), " | ")
	want := fmt.Sprintf("Google Analytics 4 counted 12 purchases in this range; the store recorded %d orders.", m.GetTotals().GetOrders())
	if !strings.Contains(notes, want) {
		t.Errorf("notes %q, want %q", notes, want)
	}
	if _, err := h.client.SelectGA4Property(ctx, &storesv1.SelectGA4PropertyRequest{CategoryId: cat, PropertyId: prop, SessionsSource: "bing"}); status.Code(err) != codes.InvalidArgument {
		t.Errorf("a bad source: %v", err)
	}
}
