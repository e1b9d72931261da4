package shopify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
)

// staticTokens is a TokenSource whose refresh hands out "fresh".
type staticTokens struct {
	mu        sync.Mutex
	tok       string
	refreshes int
}

func (s *staticTokens) Token(context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tok, nil
}

func (s *staticTokens) Refreshed(_ context.Context, rejected string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refreshes++
	s.tok = "fresh"
	return s.tok, nil
}

// fakeShop serves answers in turn, one per request, and records tokens.
func fakeShop(t *testing.T, answers ...func(w http.ResponseWriter, r *http.Request)) (*Client, *staticTokens, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		if r.URL.Path != "/a.myshopify.com/admin/api/2026-10/graphql.json" {
			t.Errorf("path = %s", r.URL.Path)
		}
		if i >= len(answers) {
			t.Errorf("unexpected request %d", i)
			w.WriteHeader(500)
			return
		}
		answers[i](w, r)
	}))
	t.Cleanup(srv.Close)
	s := fastClient(srv.URL)
	ts := &staticTokens{tok: "old"}
	return s.Client("a.myshopify.com", ts), ts, &n
}

func fastClient(base string) *Shopify {
	s := New(Config{APIKey: "key", APISecret: "secret", BaseURL: func(shop string) string { return base + "/" + shop }})
	s.retryBase, s.pollBase, s.maxWait = time.Millisecond, time.Millisecond, 2*time.Second
	return s
}

func reply(status int, body string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

const shopOK = `{"data":{"shop":{"name":"A","myshopifyDomain":"a.myshopify.com","ianaTimezone":"Asia/Tokyo","currencyCode":"JPY","taxesIncluded":true}},
"extensions":{"cost":{"requestedQueryCost":1,"actualQueryCost":1,"throttleStatus":{"maximumAvailable":2000,"currentlyAvailable":1999,"restoreRate":100}}}}`

func TestRetries(t *testing.T) {
	t.Parallel()
	throttled := `{"errors":[{"message":"Throttled","extensions":{"code":"THROTTLED"}}],
"extensions":{"cost":{"requestedQueryCost":1,"actualQueryCost":null,"throttleStatus":{"maximumAvailable":2000,"currentlyAvailable":0,"restoreRate":1000}}}}`
	cases := []struct {
		name     string
		answers  []func(http.ResponseWriter, *http.Request)
		refresh  int
		wantReqs int32
	}{
		{"throttled then ok", []func(http.ResponseWriter, *http.Request){reply(200, throttled), reply(200, shopOK)}, 0, 2},
		{"429 then ok", []func(http.ResponseWriter, *http.Request){func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "0.01")
			reply(429, throttled)(w, r)
		}, reply(200, shopOK)}, 0, 2},
		{"5xx then ok", []func(http.ResponseWriter, *http.Request){reply(502, "bad gateway"), reply(503, ""), reply(200, shopOK)}, 0, 3},
		{"401 then refresh then ok", []func(http.ResponseWriter, *http.Request){reply(401, `{"errors":"[API] Invalid API key or access token"}`),
			func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get("X-Shopify-Access-Token") != "fresh" {
					t.Errorf("retried with %q", r.Header.Get("X-Shopify-Access-Token"))
				}
				reply(200, shopOK)(w, r)
			}}, 1, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cl, ts, n := fakeShop(t, c.answers...)
			info, err := cl.Shop(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if info != (app.ShopInfo{Name: "A", Domain: "a.myshopify.com", Currency: "JPY", Timezone: "Asia/Tokyo", TaxesIncluded: true}) {
				t.Errorf("shop = %+v", info)
			}
			if n.Load() != c.wantReqs || ts.refreshes != c.refresh {
				t.Errorf("%d requests, %d refreshes", n.Load(), ts.refreshes)
			}
		})
	}
}

func TestErrorsNotRetried(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		answer []func(http.ResponseWriter, *http.Request)
		want   error
	}{
		{"402 frozen", []func(http.ResponseWriter, *http.Request){reply(402, `{"errors":"Unavailable Shop"}`)}, domain.ErrShopLocked},
		{"423 locked", []func(http.ResponseWriter, *http.Request){reply(423, `{"errors":"Locked"}`)}, domain.ErrShopLocked},
		{"401 twice", []func(http.ResponseWriter, *http.Request){reply(401, ``), reply(401, ``)}, ErrUnauthorized},
		{"access denied", []func(http.ResponseWriter, *http.Request){reply(200, `{"data":null,"errors":[{"message":"Access denied for shopifyqlQuery field.","extensions":{"code":"ACCESS_DENIED"}}]}`)}, domain.ErrNotGranted},
	}
	for _, c := range cases {
		cl, _, _ := fakeShop(t, c.answer...)
		if _, err := cl.Shop(context.Background()); !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}
	cl, _, _ := fakeShop(t, reply(200, `{"errors":[{"message":"Field 'nope' doesn't exist on type 'Shop'"}]}`))
	var ge *GraphQLError
	if _, err := cl.Shop(context.Background()); !errors.As(err, &ge) || !strings.Contains(err.Error(), "nope") || errors.Is(err, domain.ErrNotGranted) {
		t.Errorf("graphql error = %v", err)
	}
	five := make([]func(http.ResponseWriter, *http.Request), maxAttempts)
	for i := range five {
		five[i] = reply(500, "")
	}
	cl, _, n := fakeShop(t, five...)
	if _, err := cl.Shop(context.Background()); err == nil || n.Load() != maxAttempts {
		t.Errorf("persistent 5xx: %v after %d requests", err, n.Load())
	}
}

func TestRetryRespectsContext(t *testing.T) {
	t.Parallel()
	cl, _, _ := fakeShop(t, reply(503, ""), reply(503, ""))
	cl.s.retryBase = time.Hour
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := cl.Shop(ctx); !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > time.Second {
		t.Errorf("err = %v after %v", err, time.Since(start))
	}
}

func TestThrottleWait(t *testing.T) {
	t.Parallel()
	cases := []struct {
		avail, rate, req float64
		want             time.Duration
	}{
		{100, 50, 50, 0},
		{100, 50, 100, 0},
		{0, 100, 250, 2500 * time.Millisecond},
		{10, 50, 110, 2 * time.Second},
		{0, 0, 100, 0},                 // unknown rate: do not guess
		{0, 1, 1000, 30 * time.Second}, // capped
	}
	for _, c := range cases {
		if got := throttleWait(c.avail, c.rate, c.req, 30*time.Second); got != c.want {
			t.Errorf("throttleWait(%v, %v, %v) = %v, want %v", c.avail, c.rate, c.req, got, c.want)
		}
	}
	// The bucket refills with time and never beyond its maximum.
	b := bucket{costs: map[string]float64{}}
	now := time.Unix(0, 0)
	if b.delay(500, now, time.Minute) != 0 {
		t.Error("an unknown bucket must not wait")
	}
	b.update("q", 500, &throttleStatus{MaximumAvailable: 1000, CurrentlyAvailable: 100, RestoreRate: 100}, now)
	if got := b.delay(b.estimate("q"), now, time.Minute); got != 4*time.Second {
		t.Errorf("delay = %v, want 4s", got)
	}
	if got := b.delay(500, now.Add(3*time.Second), time.Minute); got != time.Second {
		t.Errorf("after 3 s delay = %v, want 1s", got)
	}
	if got := b.delay(1000, now.Add(time.Hour), time.Minute); got != 0 {
		t.Errorf("full bucket delay = %v", got)
	}
	if b.estimate("other") != defaultEstimate {
		t.Error("unknown query estimate")
	}
}

func TestClientWaitsForBucket(t *testing.T) {
	t.Parallel()
	// The first answer leaves 0 of 2000 points restoring 20/s and says the
	// query costs 1: the next call must wait about 50 ms before sending.
	first := strings.Replace(shopOK, `"currentlyAvailable":1999,"restoreRate":100`, `"currentlyAvailable":0,"restoreRate":20`, 1)
	var sent []time.Time
	rec := func(body string) func(http.ResponseWriter, *http.Request) {
		return func(w http.ResponseWriter, r *http.Request) { sent = append(sent, time.Now()); reply(200, body)(w, r) }
	}
	cl, _, _ := fakeShop(t, rec(first), rec(shopOK))
	for range 2 {
		if _, err := cl.Shop(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if gap := sent[1].Sub(sent[0]); gap < 40*time.Millisecond {
		t.Errorf("second call sent after %v, want ≥ 50 ms", gap)
	}
}

func TestReadBulkRenests(t *testing.T) {
	t.Parallel()
	jsonl := `{"id":"gid://shopify/Order/1","name":"#1"}
{"id":"gid://shopify/LineItem/11","__parentId":"gid://shopify/Order/1"}
{"id":"gid://shopify/SalesAgreement/12","__parentId":"gid://shopify/Order/1"}
{"id":"gid://shopify/Sale/121","__parentId":"gid://shopify/SalesAgreement/12"}
{"id":"gid://shopify/Sale/122","__parentId":"gid://shopify/SalesAgreement/12"}
{"id":"gid://shopify/SalesAgreement/13","__parentId":"gid://shopify/Order/1"}
{"id":"gid://shopify/Sale/131","__parentId":"gid://shopify/SalesAgreement/13"}
{"id":"gid://shopify/Thing/1311","__parentId":"gid://shopify/Sale/131"}
{"id":"gid://shopify/Order/2","name":"#2"}

{"id":"gid://shopify/Order/3","name":"#3"}
{"id":"gid://shopify/LineItem/31","__parentId":"gid://shopify/Order/3"}
`
	var got []string
	var walk func(n *bulkNode, depth int)
	walk = func(n *bulkNode, depth int) {
		got = append(got, strings.Repeat(" ", depth)+gidNumber(n.ID))
		for _, c := range n.children {
			walk(c, depth+1)
		}
	}
	err := readBulk(strings.NewReader(jsonl), func(root *bulkNode) error { walk(root, 0); return nil })
	if err != nil {
		t.Fatal(err)
	}
	want := "1| 11| 12|  121|  122| 13|  131|   1311|2|3| 31"
	if strings.Join(got, "|") != want {
		t.Errorf("tree = %q\nwant   %q", strings.Join(got, "|"), want)
	}
	// A child of an earlier order (or unknown parent) is an error, not a silent drop.
	bad := `{"id":"gid://shopify/Order/1"}
{"id":"gid://shopify/Order/2"}
{"id":"gid://shopify/LineItem/11","__parentId":"gid://shopify/Order/1"}`
	if err := readBulk(strings.NewReader(bad), func(*bulkNode) error { return nil }); err == nil {
		t.Error("orphan line accepted")
	}
	stop := errors.New("stop")
	if err := readBulk(strings.NewReader(jsonl), func(*bulkNode) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("fn error = %v", err)
	}
	if err := readBulk(strings.NewReader(`{"id":"x"`), func(*bulkNode) error { return nil }); err == nil {
		t.Error("truncated file accepted")
	}
}

func TestParseMoney(t *testing.T) {
	t.Parallel()
	cases := []struct {
		s, cur string
		want   domain.Money
	}{
		{"19.99", "USD", 1999}, {"-5.5", "EUR", -550}, {"0.0", "USD", 0}, {"", "USD", 0},
		{"1200", "JPY", 1200}, {"1200.0", "JPY", 1200}, {"-300.0", "JPY", -300},
		{"1.234", "KWD", 1234}, {"-0.5", "KWD", -500}, {"12345678.90", "USD", 1234567890},
	}
	for _, c := range cases {
		if got, err := parseMoney(c.s, c.cur); err != nil || got != c.want {
			t.Errorf("parseMoney(%q, %s) = %d, %v; want %d", c.s, c.cur, got, err, c.want)
		}
	}
	for _, c := range [][2]string{{"1.5", "JPY"}, {"1.2345", "KWD"}, {"1,299.00", "USD"}, {"1e3", "USD"}, {"$5", "USD"}} {
		if got, err := parseMoney(c[0], c[1]); err == nil {
			t.Errorf("parseMoney(%q, %s) = %d, want an error", c[0], c[1], got)
		}
	}
}

func TestShopifyQLRowShapes(t *testing.T) {
	t.Parallel()
	wrap := func(rows string) string {
		return fmt.Sprintf(`{"data":{"shopifyqlQuery":{"tableData":{"columns":[{"name":"day"},{"name":"sessions"},
{"name":"sessions_that_completed_checkout"},{"name":"conversion_rate"}],"rows":%s},"parseErrors":[]}}}`, rows)
	}
	want := []app.ShopSessions{{Day: "2026-11-20", Sessions: 120, Completed: 3}, {Day: "2026-11-21"}}
	for _, rows := range []string{
		`[{"day":"2026-11-20","sessions":120,"sessions_that_completed_checkout":"3","conversion_rate":0.025},{"day":"2026-11-21T00:00:00-05:00","sessions":0,"sessions_that_completed_checkout":0}]`,
		`[["2026-11-20",120,3,0.025],["2026-11-21","0","0",null]]`,
		`"[[\"2026-11-20\",120,3,0.025],[\"2026-11-21\",0,0.0,0]]"`,
	} {
		cl, _, _ := fakeShop(t, reply(200, wrap(rows)))
		got, err := cl.Sessions(context.Background(), "2026-11-20", "2026-11-21")
		if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("rows %s: %v %v", rows, got, err)
		}
	}
	cl, _, _ := fakeShop(t, reply(200, `{"data":{"shopifyqlQuery":{"tableData":null,"parseErrors":["Syntax error at SHOW"]}}}`))
	if _, err := cl.Sessions(context.Background(), "2026-11-20", "2026-11-21"); err == nil || !strings.Contains(err.Error(), "Syntax") {
		t.Errorf("parse errors: %v", err)
	}
	if _, err := cl.Sessions(context.Background(), "2026-11-20' OR", "2026-11-21"); err == nil {
		t.Error("a bad day reached the query")
	}
}
