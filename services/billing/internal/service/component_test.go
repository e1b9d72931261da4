package service_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stripe/stripe-go/v85/webhook"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	billingv1 "uplift.dev/proto/gen/uplift/billing/v1"
	usersv1 "uplift.dev/proto/gen/uplift/users/v1"

	billing "uplift.dev/billing/internal/service"
	"uplift.dev/billing/migrations"
	"uplift.dev/platform/firebasetest"
	"uplift.dev/platform/pagesec/pagesectest"
	"uplift.dev/platform/postgres"
	"uplift.dev/platform/servicetest"
)

const whsec = "whsec_test_fake_secret"

// fakeUsers answers GetProfile with "orig-<userId>" as the user's own
// category and "cat-<userId>" as the one they are viewing (on-behalf mode),
// and only when the caller's token was forwarded.
type fakeUsers struct {
	usersv1.UnimplementedUsersServiceServer
}

func (fakeUsers) GetProfile(ctx context.Context, r *usersv1.GetProfileRequest) (*usersv1.GetProfileResponse, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	if len(md.Get("authorization")) == 0 {
		return nil, status.Error(codes.Unauthenticated, "no token forwarded")
	}
	return &usersv1.GetProfileResponse{CategoryId: "cat-" + r.GetUserId(), OriginalCategoryId: "orig-" + r.GetUserId()}, nil
}

// GetUser knows the users signIn makes ("u-…") and, as the users service
// does, refuses an id over 128 bytes; it too answers only to a forwarded
// token.
func (fakeUsers) GetUser(ctx context.Context, r *usersv1.GetUserRequest) (*usersv1.GetUserResponse, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	switch {
	case len(md.Get("authorization")) == 0:
		return nil, status.Error(codes.Unauthenticated, "no token forwarded")
	case len(r.GetUserId()) > 128:
		return nil, status.Error(codes.InvalidArgument, "userId is not a valid user id.")
	case !strings.HasPrefix(r.GetUserId(), "u-"):
		return nil, status.Error(codes.NotFound, "User not found.")
	}
	return &usersv1.GetUserResponse{User: &usersv1.User{Id: r.GetUserId()}}, nil
}

type harness struct {
	client billingv1.BillingServiceClient
	db     *pgxpool.Pool
	stripe *stripeState
}

// stripeState stands in front of stripe-mock, which is stateless and answers
// every subscription with one fixed "active" fixture: it holds the
// subscriptions' current state as the test sets it, and passes every other
// request to stripe-mock.
type stripeState struct {
	mu   sync.Mutex
	subs map[string]string // id → subscription JSON
	// reads counts the reads of each subscription, the Stripe API calls a
	// webhook costs.
	reads map[string]int
}

// readsOf is how many times the subscription was read from Stripe.
func (s *stripeState) readsOf(id string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reads[id]
}

// set makes obj (a subscription object, "UID" replaced by uid) the
// subscription's current state.
func (s *stripeState) set(uid, obj string) {
	obj = strings.ReplaceAll(obj, "UID", uid)
	var sub struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(obj), &sub); err != nil || sub.ID == "" {
		panic("subscription without id: " + obj)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.subs[sub.ID] = obj
}

func (s *stripeState) serve(mock string) http.Handler {
	target, err := url.Parse(mock)
	if err != nil {
		panic(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id, ok := strings.CutPrefix(r.URL.Path, "/v1/subscriptions/"); ok && r.Method == http.MethodGet {
			s.mu.Lock()
			obj, found := s.subs[id]
			s.reads[id]++
			s.mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			if !found {
				w.WriteHeader(http.StatusNotFound)
				_, _ = w.Write([]byte(`{"error":{"type":"invalid_request_error","code":"resource_missing"}}`))
				return
			}
			_, _ = w.Write([]byte(obj))
			return
		}
		proxy.ServeHTTP(w, r)
	})
}

func stripeMock(t *testing.T) string {
	t.Helper()
	for _, k := range []string{"STRIPE_API_BASE", "STRIPE_MOCK_URL"} {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	if os.Getenv("UPLIFT_REQUIRE_INFRA") != "" {
		t.Fatal("STRIPE_API_BASE is not set; run the tests with `make test`")
	}
	t.Skip("STRIPE_API_BASE not set; run with `make test` to use stripe-mock")
	return ""
}

// start runs the real billing service (gRPC, Postgres, NATS, the Auth
// emulator, stripe-mock) with the test checkout page on, a fake users
// service, and a stand-in for the gateway's webhook route.
func start(t *testing.T) harness {
	t.Helper()
	mock := stripeMock(t)
	usersAddr := servicetest.Stub(t, func(g *grpc.Server) { usersv1.RegisterUsersServiceServer(g, fakeUsers{}) })

	var webhookTo atomic.Pointer[billingv1.BillingServiceClient]
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		_, err := (*webhookTo.Load()).HandleStripeWebhook(r.Context(), &billingv1.HandleStripeWebhookRequest{
			Payload: body, Signature: r.Header.Get("Stripe-Signature")})
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		_, _ = w.Write([]byte(`{"received":true}`))
	}))

	subs := &stripeState{subs: map[string]string{}, reads: map[string]int{}}
	stripeAPI := httptest.NewServer(subs.serve(mock))
	s := &billing.Settings{
		Base:            servicetest.Base(t),
		StripeSecretKey: "sk_test_fakekey", StripeAPIBase: stripeAPI.URL, StripeWebhookSecret: whsec,
		UsersAddr: usersAddr, TestCheckoutAddr: "127.0.0.1:0", GatewayURL: gw.URL,
		WebOrigins: []string{"http://localhost:3000"},
	}
	dbURL := s.DatabaseURL
	conn, _ := servicetest.Run(t, "billing", s.Base, migrations.FS, billing.Wire(s))
	client := billingv1.NewBillingServiceClient(conn)
	webhookTo.Store(&client)
	db, err := postgres.Open(context.Background(), dbURL, "billing")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		db.Close()
		gw.Close()
		stripeAPI.Close()
	})
	return harness{client: client, db: db, stripe: subs}
}

// signIn makes an emulator user (with optional custom claims) and returns
// its id and ID token.
func signIn(t *testing.T, claims map[string]any) (string, context.Context) {
	t.Helper()
	uid := "u-" + uuid.NewString()[:8]
	tok := firebasetest.SignInAs(t, uid, claims)
	return uid, metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+tok)
}

type state struct {
	tier   string
	manual bool
	events int
}

func (h harness) state(t *testing.T, uid string) state {
	t.Helper()
	var s state
	err := h.db.QueryRow(context.Background(), `SELECT tier, is_manually_set FROM billing WHERE user_id = $1`, uid).Scan(&s.tier, &s.manual)
	if err != nil && !strings.Contains(err.Error(), "no rows") {
		t.Fatal(err)
	}
	// Each applied change wrote one BillingChanged to the outbox.
	if err := h.db.QueryRow(context.Background(), `SELECT count(*) FROM outbox WHERE subject = 'uplift.billing.changed'
		AND position($1 in encode(payload, 'escape')) > 0`, uid).Scan(&s.events); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestTiersCheckoutPortalAndTestPage(t *testing.T) {
	t.Parallel()
	h := start(t)
	tiers, err := h.client.ListSubscriptionTiers(context.Background(), &billingv1.ListSubscriptionTiersRequest{})
	if err != nil {
		t.Fatal(err)
	}
	pro := tiers.GetTiers()["pro"]
	// The spec's paid plan, word for word: what is built is included,
	// ads and resizing are coming soon (never sold before they exist).
	wantIncluded := []string{"Unlimited downloads", "Background removal", "Studio-quality product images", "Early access to new AI features"}
	wantSoon := []string{"Turning product images into ads", "Resizing images"}
	if tiers.GetTiers()["free"] == nil || pro.GetPrices().GetMonthly().GetStripeId() != "price_uplift_pro_monthly" ||
		!slices.Equal(pro.GetIncluded(), wantIncluded) || !slices.Equal(pro.GetComingSoon(), wantSoon) {
		t.Fatalf("tiers %v", tiers)
	}

	uid, ctx := signIn(t, nil)
	req := func(cat, price string) *billingv1.CreateStripeCheckoutRequest {
		return &billingv1.CreateStripeCheckoutRequest{CategoryId: cat, PriceId: price, CustomerEmail: "shop@example.com",
			SuccessUrl: "http://localhost:3000/?upgraded=1", CancelUrl: "http://localhost:3000/?cancelled=1"}
	}
	if _, err := h.client.CreateStripeCheckout(context.Background(), req("cat-"+uid, "price_uplift_pro_monthly")); status.Code(err) != codes.Unauthenticated {
		t.Fatalf("anonymous: %v", err)
	}
	if _, err := h.client.CreateStripeCheckout(ctx, req("cat-someone-else", "price_uplift_pro_monthly")); status.Code(err) != codes.PermissionDenied {
		t.Fatalf("other category: %v", err)
	}
	if _, err := h.client.CreateStripeCheckout(ctx, req("cat-"+uid, "price_nope")); status.Code(err) != codes.InvalidArgument ||
		!strings.Contains(status.Convert(err).Message(), "priceId") {
		t.Fatalf("unknown price: %v", err)
	}
	_, err = h.client.CreateStripeCustomerPortal(ctx, &billingv1.CreateStripeCustomerPortalRequest{CategoryId: "orig-" + uid, RedirectUrl: "http://localhost:3000/"})
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(status.Convert(err).Message(), "no paid subscription") {
		t.Fatalf("portal before paying: %v", err)
	}
	// The category being viewed on someone's behalf is not the caller's to pay for.
	_, err = h.client.CreateStripeCheckout(ctx, req("cat-"+uid, "price_uplift_pro_monthly"))
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(status.Convert(err).Message(), "Only the store's owner") {
		t.Fatalf("checkout on behalf: %v", err)
	}

	res, err := h.client.CreateStripeCheckout(ctx, req("orig-"+uid, "price_uplift_pro_monthly"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.GetUrl(), "/test-checkout/") {
		t.Fatalf("url %q", res.GetUrl())
	}
	resp, err := http.Get(res.GetUrl())
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"Test checkout — no real payment", "Pro", "$29.00", "Complete test purchase", "Cancel", "cancelled=1"} {
		if !strings.Contains(string(page), want) {
			t.Fatalf("page lacks %q:\n%s", want, page)
		}
	}
	// Framed by no one; its form may lead only back here and, by the
	// completion's redirect, to the successUrl's origin.
	if err := pagesectest.Check(resp.Header, string(page), "http://localhost:3000"); err != nil {
		t.Fatalf("checkout page: %v", err)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err = noRedirect.Post(res.GetUrl()+"/complete", "application/x-www-form-urlencoded", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "http://localhost:3000/?upgraded=1" {
		t.Fatalf("complete: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if s := h.state(t, uid); s != (state{"pro", false, 1}) {
		t.Fatalf("after test purchase: %+v", s)
	}
	resp, _ = noRedirect.Post(res.GetUrl()+"/complete", "", nil)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("second completion: %d", resp.StatusCode)
	}

	// One customer per user, reused.
	if _, err := h.client.CreateStripeCheckout(ctx, req("orig-"+uid, "price_uplift_pro_monthly")); err != nil {
		t.Fatal(err)
	}
	var customers int
	_ = h.db.QueryRow(context.Background(), `SELECT count(*) FROM customers WHERE user_id = $1`, uid).Scan(&customers)
	if customers != 1 {
		t.Fatalf("customers %d", customers)
	}
	portal, err := h.client.CreateStripeCustomerPortal(ctx, &billingv1.CreateStripeCustomerPortalRequest{CategoryId: "orig-" + uid, RedirectUrl: "http://localhost:3000/"})
	if err != nil || !strings.HasPrefix(portal.GetUrl(), "https://") {
		t.Fatalf("portal: %v %v", portal, err)
	}
}

// TestReturnURLsStayOnTheWebApp: Stripe sends the browser back to the
// success, cancel and portal return URLs, so only the web app's own origins
// are accepted; anything else would make Uplift's checkout an open redirect.
// The user has paid first, so the portal would open for them and only the
// return URL can refuse it.
func TestReturnURLsStayOnTheWebApp(t *testing.T) {
	t.Parallel()
	h := start(t)
	uid, ctx := signIn(t, nil)
	good := "http://localhost:3000/analytics?checkout=success"
	res, err := h.client.CreateStripeCheckout(ctx, &billingv1.CreateStripeCheckoutRequest{CategoryId: "orig-" + uid,
		PriceId: "price_uplift_pro_monthly", SuccessUrl: good, CancelUrl: good})
	if err != nil {
		t.Fatal(err)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Post(res.GetUrl()+"/complete", "application/x-www-form-urlencoded", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if s := h.state(t, uid); resp.StatusCode != http.StatusSeeOther || s.tier != "pro" {
		t.Fatalf("test purchase: %d, billing %+v", resp.StatusCode, s)
	}
	if _, err := h.client.CreateStripeCustomerPortal(ctx, &billingv1.CreateStripeCustomerPortalRequest{CategoryId: "orig-" + uid, RedirectUrl: good}); err != nil {
		t.Fatalf("portal back to the web app: %v", err)
	}
	for _, bad := range []string{
		"https://evil.example/analytics",
		"http://localhost:3000.evil.example/",
		"http://localhost:3000@evil.example/",
		"http://localhost:3001/",
		"https://localhost:3000/",
		"//evil.example/",
		"javascript:alert(1)",
	} {
		for _, r := range []*billingv1.CreateStripeCheckoutRequest{
			{CategoryId: "orig-" + uid, PriceId: "price_uplift_pro_monthly", SuccessUrl: bad, CancelUrl: good},
			{CategoryId: "orig-" + uid, PriceId: "price_uplift_pro_monthly", SuccessUrl: good, CancelUrl: bad},
		} {
			_, err := h.client.CreateStripeCheckout(ctx, r)
			if status.Code(err) != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), "Url") {
				t.Errorf("checkout with %q: %v", bad, err)
			}
		}
		_, err := h.client.CreateStripeCustomerPortal(ctx, &billingv1.CreateStripeCustomerPortalRequest{CategoryId: "orig-" + uid, RedirectUrl: bad})
		if status.Code(err) != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), "redirectUrl") {
			t.Errorf("portal with %q: %v", bad, err)
		}
	}
}

// TestMalformedInputIsInvalidArgument: NUL bytes and megabyte values are the
// caller's mistake (InvalidArgument, never Internal), and a message that
// names the bad value stays short.
func TestMalformedInputIsInvalidArgument(t *testing.T) {
	t.Parallel()
	h := start(t)
	uid, ctx := signIn(t, nil)
	_, adminCtx := signIn(t, map[string]any{"admin": true})
	huge := strings.Repeat("x", 1<<20)
	checkout := func(r *billingv1.CreateStripeCheckoutRequest) error {
		r.SuccessUrl, r.CancelUrl = "http://localhost:3000/", "http://localhost:3000/"
		_, err := h.client.CreateStripeCheckout(ctx, r)
		return err
	}
	for _, tt := range []struct {
		name string
		call func() error
	}{
		{"a 1 MB price id", func() error {
			return checkout(&billingv1.CreateStripeCheckoutRequest{CategoryId: "orig-" + uid, PriceId: huge})
		}},
		{"NUL in a price id", func() error {
			return checkout(&billingv1.CreateStripeCheckoutRequest{CategoryId: "orig-" + uid, PriceId: "price\x00"})
		}},
		{"NUL in a referral id", func() error {
			return checkout(&billingv1.CreateStripeCheckoutRequest{CategoryId: "orig-" + uid, PriceId: "price_uplift_pro_monthly", ReferralId: "r\x00"})
		}},
		{"NUL in a user id", func() error {
			_, err := h.client.SetBilling(adminCtx, &billingv1.SetBillingRequest{UserId: "u\x00", Tier: "pro"})
			return err
		}},
		{"a 1 MB user id", func() error {
			_, err := h.client.SetBilling(adminCtx, &billingv1.SetBillingRequest{UserId: huge, Tier: "pro"})
			return err
		}},
		{"a 10 kB user id (PostgreSQL's index refuses it)", func() error {
			b := make([]byte, 5<<10)
			_, _ = rand.Read(b)
			_, err := h.client.SetBilling(adminCtx, &billingv1.SetBillingRequest{UserId: hex.EncodeToString(b), Tier: "pro"})
			return err
		}},
		{"a 1 MB tier", func() error {
			_, err := h.client.SetBilling(adminCtx, &billingv1.SetBillingRequest{UserId: "u-1", Tier: huge})
			return err
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if st := status.Convert(err); st.Code() != codes.InvalidArgument || utf8.RuneCountInString(st.Message()) > 200 {
				t.Fatalf("err = %.300v, want InvalidArgument with at most 200 characters", err)
			}
		})
	}
}

// event signs a Stripe event for uid.
func event(id, typ, uid string, created time.Time, object string) (payload []byte, sig string) {
	payload = fmt.Appendf(nil, `{"id":%q,"object":"event","api_version":"2026-03-25.dahlia","created":%d,"type":%q,"data":{"object":%s}}`,
		id, created.Unix(), typ, strings.ReplaceAll(object, "UID", uid))
	return payload, webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: whsec}).Header
}

const (
	checkoutObj = `{"object":"checkout.session","client_reference_id":"UID","customer":"cus_UID","payment_status":"paid","metadata":{"userId":"UID","tier":"pro"}}`
	subActive   = `{"id":"sub_UID","object":"subscription","status":"active","customer":"cus_UID","metadata":{"userId":"UID"},"items":{"data":[{"price":{"id":"price_uplift_pro_monthly"}}]}}`
	subUnpaid   = `{"id":"sub_UID","object":"subscription","status":"unpaid","customer":"cus_UID","metadata":{"userId":"UID"},"items":{"data":[{"price":{"id":"price_uplift_pro_monthly"}}]}}`
	subDeleted  = `{"id":"sub_UID","object":"subscription","status":"canceled","customer":"cus_UID","items":{"data":[{"price":{"id":"price_uplift_pro_monthly"}}]}}`
	invoiceObj  = `{"object":"invoice","customer":"cus_UID","status":"open"}`
)

func TestWebhooks(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	send := func(payload []byte, sig string) error {
		_, err := h.client.HandleStripeWebhook(ctx, &billingv1.HandleStripeWebhookRequest{Payload: payload, Signature: sig})
		return err
	}
	t0 := time.Now().Add(-time.Hour).Truncate(time.Second)

	t.Run("bad and missing signature change nothing", func(t *testing.T) {
		p, _ := event("evt_bad_"+uuid.NewString(), "checkout.session.completed", "u-bad", t0, checkoutObj)
		forged := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: p, Secret: "whsec_wrong"}).Header
		for _, sig := range []string{"", forged} {
			if err := send(p, sig); status.Code(err) != codes.InvalidArgument {
				t.Fatalf("sig %q: %v", sig, err)
			}
		}
		if s := h.state(t, "u-bad"); s != (state{}) {
			t.Fatalf("state %+v", s)
		}
	})

	t.Run("each event type", func(t *testing.T) {
		uid := "u-" + uuid.NewString()[:8]
		steps := []struct {
			typ, obj string
			want     state
		}{
			{"checkout.session.completed", checkoutObj, state{"pro", false, 1}},
			{"customer.subscription.created", subActive, state{"pro", false, 1}}, // same state, no event
			{"customer.subscription.updated", subUnpaid, state{"free", false, 2}},
			{"customer.subscription.updated", subActive, state{"pro", false, 3}},
			{"invoice.payment_failed", invoiceObj, state{"pro", false, 3}},
			{"customer.subscription.deleted", subDeleted, state{"free", false, 4}},
		}
		for i, st := range steps {
			if strings.Contains(st.obj, `"object":"subscription"`) {
				h.stripe.set(uid, st.obj) // delivered in order: what it says is current
			}
			p, sig := event(fmt.Sprintf("evt_%s_%d", uid, i), st.typ, uid, t0.Add(time.Duration(i)*time.Minute), st.obj)
			if err := send(p, sig); err != nil {
				t.Fatalf("%s: %v", st.typ, err)
			}
			if s := h.state(t, uid); s != st.want {
				t.Fatalf("after %s: %+v, want %+v", st.typ, s, st.want)
			}
		}
	})

	t.Run("replay applies once", func(t *testing.T) {
		uid := "u-" + uuid.NewString()[:8]
		p, sig := event("evt_replay_"+uid, "checkout.session.completed", uid, t0, checkoutObj)
		del, dsig := event("evt_del_"+uid, "customer.subscription.deleted", uid, t0.Add(time.Minute), subDeleted)
		for _, e := range [][2]any{{p, sig}, {del, dsig}, {p, sig}, {p, sig}} {
			if err := send(e[0].([]byte), e[1].(string)); err != nil {
				t.Fatal(err)
			}
		}
		// The replayed checkout did not bring "pro" back after the deletion.
		if s := h.state(t, uid); s != (state{"free", false, 2}) {
			t.Fatalf("state %+v", s)
		}
	})

	t.Run("a replayed event is acknowledged without a Stripe read", func(t *testing.T) {
		uid := "u-" + uuid.NewString()[:8]
		h.stripe.set(uid, subActive)
		p, sig := event("evt_upd_"+uid, "customer.subscription.updated", uid, t0, subActive)
		for range 4 {
			if err := send(p, sig); err != nil {
				t.Fatal(err)
			}
		}
		if n := h.stripe.readsOf("sub_" + uid); n != 1 {
			t.Fatalf("4 deliveries of one event read the subscription %d times, want 1", n)
		}
		if s := h.state(t, uid); s != (state{"pro", false, 1}) {
			t.Fatalf("state %+v", s)
		}
	})

	t.Run("older event after newer leaves the newer state", func(t *testing.T) {
		uid := "u-" + uuid.NewString()[:8]
		newer, nsig := event("evt_new_"+uid, "customer.subscription.deleted", uid, t0.Add(time.Hour), subDeleted)
		older, osig := event("evt_old_"+uid, "customer.subscription.created", uid, t0, subActive)
		// The deletion names only the customer; link it first via checkout.
		ck, csig := event("evt_ck_"+uid, "checkout.session.completed", uid, t0.Add(-time.Hour), checkoutObj)
		h.stripe.set(uid, subDeleted)
		for _, e := range [][2]any{{ck, csig}, {newer, nsig}, {older, osig}} {
			if err := send(e[0].([]byte), e[1].(string)); err != nil {
				t.Fatal(err)
			}
		}
		if s := h.state(t, uid); s != (state{"free", false, 2}) {
			t.Fatalf("state %+v", s)
		}
	})

	// The finding: a stale "active" in the same second as the cancellation
	// brought Pro back, because each event's own payload was trusted and
	// equal times apply; and the other way, a stale "unpaid" in the same
	// second as the renewal took Pro away. The subscription's current state
	// decides now, read by the real adapter (stripe-go) from stripe-mock
	// behind stripeState.
	for _, tt := range []struct {
		name, current, stale string
		want                 state
	}{
		{"a stale active in the same second as the cancellation", subDeleted, subActive, state{"free", false, 2}},
		{"a stale unpaid in the same second as the renewal", subActive, subUnpaid, state{"pro", false, 1}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			uid := "u-" + uuid.NewString()[:8]
			second := t0.Add(2 * time.Hour)
			ck, csig := event("evt_ck_"+uid, "checkout.session.completed", uid, second.Add(-time.Hour), checkoutObj)
			now, nsig := event("evt_now_"+uid, "customer.subscription.updated", uid, second, tt.current)
			stale, ssig := event("evt_stale_"+uid, "customer.subscription.updated", uid, second, tt.stale)
			h.stripe.set(uid, tt.current) // what Stripe holds
			for _, e := range [][2]any{{ck, csig}, {now, nsig}, {stale, ssig}} {
				if err := send(e[0].([]byte), e[1].(string)); err != nil {
					t.Fatal(err)
				}
			}
			if s := h.state(t, uid); s != tt.want {
				t.Fatalf("state %+v, want %+v as Stripe holds it", s, tt.want)
			}
		})
	}

	t.Run("manual billing is not overwritten by webhooks", func(t *testing.T) {
		uid, userCtx := signIn(t, nil)
		_, adminCtx := signIn(t, map[string]any{"admin": true})
		if _, err := h.client.SetBilling(userCtx, &billingv1.SetBillingRequest{UserId: uid, Tier: "pro"}); status.Code(err) != codes.PermissionDenied {
			t.Fatalf("non-admin: %v", err)
		}
		if _, err := h.client.SetBilling(adminCtx, &billingv1.SetBillingRequest{UserId: uid, Tier: "gold"}); status.Code(err) != codes.InvalidArgument {
			t.Fatalf("unknown tier: %v", err)
		}
		// A user id the users service does not know is 404 with a sentence,
		// and no plan is kept for it.
		_, err := h.client.SetBilling(adminCtx, &billingv1.SetBillingRequest{UserId: "nobody-" + uid, Tier: "pro"})
		if st := status.Convert(err); st.Code() != codes.NotFound || st.Message() != "No user exists with that userId." {
			t.Fatalf("unknown user: %v", err)
		}
		if s := h.state(t, "nobody-"+uid); s != (state{}) {
			t.Fatalf("unknown user has state %+v", s)
		}
		res, err := h.client.SetBilling(adminCtx, &billingv1.SetBillingRequest{UserId: uid, Tier: "pro"})
		if err != nil || res.GetTier() != "pro" || !res.GetIsManuallySet() {
			t.Fatalf("%v %v", res, err)
		}
		p, sig := event("evt_after_manual_"+uid, "customer.subscription.deleted", uid, time.Now().Add(time.Hour), strings.Replace(subDeleted, `"customer"`, `"metadata":{"userId":"UID"},"customer"`, 1))
		if err := send(p, sig); err != nil {
			t.Fatal(err)
		}
		if s := h.state(t, uid); s != (state{"pro", true, 1}) {
			t.Fatalf("state %+v", s)
		}
	})
}

// TestSetBillingIsAudited: an admin's setBilling is written to billing's
// audit_log (who, for whom, what, when) in the transaction of the change; a
// refused attempt writes nothing.
func TestSetBillingIsAudited(t *testing.T) {
	t.Parallel()
	h := start(t)
	uid, userCtx := signIn(t, nil)
	adminUID, adminCtx := signIn(t, map[string]any{"admin": true})
	if _, err := h.client.SetBilling(userCtx, &billingv1.SetBillingRequest{UserId: uid, Tier: "pro"}); status.Code(err) != codes.PermissionDenied {
		t.Fatalf("non-admin: %v", err)
	}
	before := time.Now()
	if _, err := h.client.SetBilling(adminCtx, &billingv1.SetBillingRequest{UserId: uid, Tier: "pro"}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.client.SetBilling(adminCtx, &billingv1.SetBillingRequest{UserId: uid, Tier: "free"}); err != nil {
		t.Fatal(err)
	}
	rows, err := h.db.Query(context.Background(), `SELECT actor_id, user_id, action, detail, created_at FROM audit_log
		WHERE user_id = $1 ORDER BY id`, uid)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var actor, user, action, detail string
		var at time.Time
		if err := rows.Scan(&actor, &user, &action, &detail, &at); err != nil {
			t.Fatal(err)
		}
		if actor != adminUID || at.Before(before.Add(-time.Minute)) {
			t.Fatalf("entry by %q at %v", actor, at)
		}
		got = append(got, action+": "+detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"set_billing: tier pro", "set_billing: tier free"}; !slices.Equal(got, want) {
		t.Fatalf("audit %q, want %q", got, want)
	}
}

// TestIdentityVerificationThroughStripeMock: the call reaches Stripe
// (stripe-mock validates the request) for a signed-in caller only, with a
// return URL on the web app only. The mock's session has no client secret
// and no page, so on this test stack the browser is sent to the local
// stand-in for Stripe's page, clearly a test, whose outcome comes back
// through the real webhook path as a signed event, once per verification.
func TestIdentityVerificationThroughStripeMock(t *testing.T) {
	t.Parallel()
	h := start(t)
	if _, err := h.client.CreateIdentityVerification(context.Background(), &billingv1.CreateIdentityVerificationRequest{}); status.Code(err) != codes.Unauthenticated {
		t.Fatalf("signed out: %v", err)
	}
	_, ctx := signIn(t, nil)
	_, err := h.client.CreateIdentityVerification(ctx, &billingv1.CreateIdentityVerificationRequest{ReturnUrl: "https://evil.example/"})
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("foreign return URL: %v", err)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	verify := func(outcome string) *http.Response {
		t.Helper()
		res, err := h.client.CreateIdentityVerification(ctx, &billingv1.CreateIdentityVerificationRequest{ReturnUrl: "http://localhost:3000/?identity=returned"})
		if err != nil {
			t.Fatal(err)
		}
		if res.GetClientSecret() != "" || !strings.Contains(res.GetUrl(), "/test-identity/") || !strings.HasPrefix(res.GetId(), "vs_") {
			t.Fatalf("session %v", res)
		}
		page, err := http.Get(res.GetUrl())
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(page.Body)
		page.Body.Close()
		if page.StatusCode != http.StatusOK || !strings.Contains(string(body), "Test identity verification — no real check") {
			t.Fatalf("page %d %s", page.StatusCode, body)
		}
		if err := pagesectest.Check(page.Header, string(body), "http://localhost:3000"); err != nil {
			t.Fatalf("identity page: %v", err)
		}
		resp, err := noRedirect.Post(res.GetUrl()+"/"+outcome, "application/x-www-form-urlencoded", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if outcome == "verified" || outcome == "requires_input" || outcome == "canceled" {
			// Used once: the same verification cannot report again.
			again, _ := noRedirect.Post(res.GetUrl()+"/verified", "", nil)
			if again.StatusCode != http.StatusNotFound {
				t.Fatalf("second outcome: %d", again.StatusCode)
			}
			again.Body.Close()
		}
		return resp
	}
	outcome := func() string {
		t.Helper()
		r, err := h.client.GetIdentityVerification(ctx, &billingv1.GetIdentityVerificationRequest{})
		if err != nil {
			t.Fatal(err)
		}
		return r.GetStatus()
	}
	if resp := verify("approved"); resp.StatusCode != http.StatusNotFound || outcome() != "" {
		t.Fatalf("an outcome Stripe has not: %d %q", resp.StatusCode, outcome())
	}
	for _, want := range []string{"requires_input", "canceled", "verified"} {
		resp := verify(want)
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "http://localhost:3000/?identity=returned" {
			t.Fatalf("%s: %d %s", want, resp.StatusCode, resp.Header.Get("Location"))
		}
		if got := outcome(); got != want {
			t.Fatalf("recorded %q, want %q", got, want)
		}
		// Created times have one-second resolution: the next verification is a later one.
		time.Sleep(1100 * time.Millisecond)
	}
}

// identitySession is the identity.verification_session object of an event,
// made for UID as CreateIdentityVerification makes it.
func identitySession(session, status string) string {
	return fmt.Sprintf(`{"id":%q,"object":"identity.verification_session","status":%q,"client_reference_id":"UID","metadata":{"userId":"UID"}}`, session, status)
}

// TestIdentityOutcomesThroughWebhooks: signed identity events, sent the way
// the gateway passes Stripe's, are recorded per account, ordered by their
// created time, at most once, and read back by the person alone.
func TestIdentityOutcomesThroughWebhooks(t *testing.T) {
	t.Parallel()
	h := start(t)
	uid, ctx := signIn(t, nil)
	other, otherCtx := signIn(t, nil)
	send := func(id, typ, user string, at time.Time, obj string) error {
		p, sig := event(id, typ, user, at, obj)
		_, err := h.client.HandleStripeWebhook(context.Background(), &billingv1.HandleStripeWebhookRequest{Payload: p, Signature: sig})
		return err
	}
	get := func(ctx context.Context) *billingv1.GetIdentityVerificationResponse {
		t.Helper()
		r, err := h.client.GetIdentityVerification(ctx, &billingv1.GetIdentityVerificationRequest{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if _, err := h.client.GetIdentityVerification(context.Background(), &billingv1.GetIdentityVerificationRequest{}); status.Code(err) != codes.Unauthenticated {
		t.Fatalf("signed out: %v", err)
	}
	if r := get(ctx); r.GetStatus() != "" || r.GetUpdateTime() != "" {
		t.Fatalf("before any event: %v", r)
	}

	t0 := time.Now().Add(-2 * time.Hour).Truncate(time.Second).UTC()
	t1 := t0.Add(90 * time.Minute)

	// A forged signature records nothing.
	p, _ := event("evt_idf_"+uuid.NewString(), "identity.verification_session.verified", uid, t0, identitySession("vs_1", "verified"))
	forged := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: p, Secret: "whsec_wrong"}).Header
	if _, err := h.client.HandleStripeWebhook(context.Background(), &billingv1.HandleStripeWebhookRequest{Payload: p, Signature: forged}); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("forged: %v", err)
	}
	if r := get(ctx); r.GetStatus() != "" {
		t.Fatalf("a forged event was recorded: %v", r)
	}

	needsInput := "evt_idr_" + uuid.NewString()
	if err := send(needsInput, "identity.verification_session.requires_input", uid, t0, identitySession("vs_1", "requires_input")); err != nil {
		t.Fatal(err)
	}
	if r := get(ctx); r.GetStatus() != "requires_input" || r.GetUpdateTime() != t0.Format(time.RFC3339) {
		t.Fatalf("after requires_input: %v", r)
	}
	if err := send("evt_idv_"+uuid.NewString(), "identity.verification_session.verified", uid, t1, identitySession("vs_2", "verified")); err != nil {
		t.Fatal(err)
	}
	// The requires_input event again (Stripe retries), and a late canceled
	// older than the verification: neither undoes it.
	if err := send(needsInput, "identity.verification_session.requires_input", uid, t1.Add(time.Minute), identitySession("vs_1", "requires_input")); err != nil {
		t.Fatal(err)
	}
	if err := send("evt_idc_"+uuid.NewString(), "identity.verification_session.canceled", uid, t0.Add(time.Minute), identitySession("vs_1", "canceled")); err != nil {
		t.Fatal(err)
	}
	if r := get(ctx); r.GetStatus() != "verified" || r.GetUpdateTime() != t1.Format(time.RFC3339) {
		t.Fatalf("after the verification and late events: %v", r)
	}
	// Each account has its own outcome.
	if r := get(otherCtx); r.GetStatus() != "" {
		t.Fatalf("another account sees %v", r)
	}
	if err := send("evt_idc_"+uuid.NewString(), "identity.verification_session.canceled", other, t1, identitySession("vs_3", "canceled")); err != nil {
		t.Fatal(err)
	}
	if r := get(otherCtx); r.GetStatus() != "canceled" {
		t.Fatalf("other after canceled: %v", r)
	}
	if r := get(ctx); r.GetStatus() != "verified" {
		t.Fatalf("first account changed by another's event: %v", r)
	}
	// A session not made by Uplift (no user) is acknowledged, not recorded.
	if err := send("evt_idx_"+uuid.NewString(), "identity.verification_session.verified", "", t1, `{"id":"vs_x","object":"identity.verification_session","status":"verified"}`); err != nil {
		t.Fatalf("foreign session: %v", err)
	}
	var rows int
	if err := h.db.QueryRow(context.Background(), `SELECT count(*) FROM identity_verifications WHERE session_id = 'vs_x'`).Scan(&rows); err != nil || rows != 0 {
		t.Fatalf("foreign session rows %d, %v", rows, err)
	}
}
