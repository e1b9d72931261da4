package app

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"uplift.dev/billing/internal/domain"
)

type fakePayments struct {
	customers int
	last      CheckoutParams
	// events are what ParseEvent reads, by payload; subs are Stripe's
	// subscriptions as they are now.
	events  map[string]domain.PaymentEvent
	subs    map[string]domain.Subscription
	subErr  error
	fetches int
	// verified lists "userID email" per identity verification started.
	verified []string
	noSecret bool
}

func (f *fakePayments) CreateCustomer(context.Context, string, string) (string, error) {
	f.customers++
	return "cus_fake", nil
}
func (f *fakePayments) CreateCheckout(_ context.Context, p CheckoutParams) (string, error) {
	f.last = p
	return "https://checkout.example/session", nil
}
func (f *fakePayments) CreatePortal(context.Context, string, string) (string, error) {
	return "https://portal.example/session", nil
}
func (f *fakePayments) CreateIdentityVerification(_ context.Context, userID, email, returnURL string) (domain.IdentityVerification, error) {
	f.verified = append(f.verified, strings.TrimSpace(userID+" "+email+" "+returnURL))
	if f.noSecret {
		return domain.IdentityVerification{ID: "vs_fake"}, nil
	}
	return domain.IdentityVerification{ID: "vs_fake", ClientSecret: "vs_fake_secret", URL: "https://verify.example/vs_fake"}, nil
}
func (f *fakePayments) ParseEvent(payload []byte, _ string) (domain.PaymentEvent, error) {
	if ev, ok := f.events[string(payload)]; ok {
		return ev, nil
	}
	return domain.PaymentEvent{}, domain.ErrBadSignature
}
func (f *fakePayments) Subscription(_ context.Context, id string) (domain.Subscription, error) {
	f.fetches++
	if f.subErr != nil {
		return domain.Subscription{}, f.subErr
	}
	sub, ok := f.subs[id]
	if !ok {
		return domain.Subscription{}, domain.ErrSubscriptionNotFound
	}
	return sub, nil
}

type fakeProfiles struct{ cat, orig string }

func (f fakeProfiles) GetProfile(context.Context, string) (string, string, error) {
	return f.cat, f.orig, nil
}

// UserExists knows every user but "ghost".
func (f fakeProfiles) UserExists(_ context.Context, id string) (bool, error) {
	return id != "ghost", nil
}

// fakeRepo keeps just enough state for the use cases.
type fakeRepo struct {
	Repository
	customers map[string]string
	billing   map[string]*domain.Billing
	pending   []PendingCheckout
	// identities are the local test verifications saved.
	identities []PendingIdentity
	changes    int
	audit      []domain.AuditEntry
	events     map[string]bool
}

func (f *fakeRepo) CustomerID(_ context.Context, u string) (string, error) {
	return f.customers[u], nil
}
func (f *fakeRepo) SaveCustomer(_ context.Context, u, c string) (string, error) {
	if f.customers[u] == "" {
		f.customers[u] = c
	}
	return f.customers[u], nil
}
func (f *fakeRepo) Billing(_ context.Context, u string) (*domain.Billing, error) {
	return f.billing[u], nil
}

// Change decides as the Postgres repository does, under domain.Apply.
func (f *fakeRepo) Change(_ context.Context, eventID string, u string, c domain.Change, audit ...domain.AuditEntry) (domain.Decision, bool, error) {
	if eventID != "" {
		if replay, _ := f.RecordEvent(context.Background(), eventID); replay {
			return domain.IgnoredSame, true, nil
		}
	}
	f.audit = append(f.audit, audit...)
	d := domain.Apply(f.billing[u], c)
	if d == domain.Applied {
		f.changes++
		f.billing[u] = &domain.Billing{UserID: u, Tier: c.Tier, IsManuallySet: c.IsManuallySet, SourceTime: c.SourceTime}
	}
	return d, false, nil
}
func (f *fakeRepo) RecordEvent(_ context.Context, eventID string) (bool, error) {
	if f.events == nil {
		f.events = map[string]bool{}
	}
	seen := f.events[eventID]
	f.events[eventID] = true
	return seen, nil
}
func (f *fakeRepo) EventSeen(_ context.Context, eventID string) (bool, error) {
	return f.events[eventID], nil
}
func (f *fakeRepo) UserByCustomer(_ context.Context, c string) (string, error) {
	for u, id := range f.customers {
		if id == c {
			return u, nil
		}
	}
	return "", nil
}
func (f *fakeRepo) SavePendingIdentity(_ context.Context, p PendingIdentity) error {
	f.identities = append(f.identities, p)
	return nil
}
func (f *fakeRepo) SavePendingCheckout(_ context.Context, p PendingCheckout) error {
	f.pending = append(f.pending, p)
	return nil
}

func newApp() (*App, *fakeRepo, *fakePayments) {
	repo := &fakeRepo{customers: map[string]string{}, billing: map[string]*domain.Billing{}}
	pay := &fakePayments{}
	tiers := domain.Tiers{"free": {Name: "Free"}, "pro": {Name: "Pro", Prices: domain.Prices{Monthly: domain.Price{Amount: 2900, StripeID: "price_pro"}}}}
	origins, err := domain.ParseOrigins([]string{"http://localhost:3000"})
	if err != nil {
		panic(err)
	}
	return New(tiers, repo, pay, fakeProfiles{"cat-now", "cat-now"}, slog.New(slog.NewTextHandler(io.Discard, nil)), origins), repo, pay
}

func checkout(cat, price string) CheckoutInput {
	return CheckoutInput{CategoryID: cat, PriceID: price, SuccessURL: "http://localhost:3000/ok", CancelURL: "http://localhost:3000/no"}
}

// An uplifter viewing as an owner has the owner's category as their current
// one: a checkout or portal there would charge the uplifter's own account and
// leave the owner on Free, so both are refused and nothing reaches Stripe.
func TestPlansAreNotBoughtOnBehalf(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a, repo, pay := newApp()
	a.profiles = fakeProfiles{cat: "cat-owner", orig: "cat-uplifter"}
	up := domain.Caller{UID: "up", Email: "up@example.com", Uplifter: true}
	if _, err := a.CreateCheckout(ctx, up, checkout("cat-owner", "price_pro")); !errors.Is(err, domain.ErrOnBehalf) {
		t.Fatalf("checkout on behalf: err = %v, want ErrOnBehalf", err)
	}
	if pay.last.UserID != "" || len(repo.customers) != 0 || len(repo.pending) != 0 {
		t.Fatalf("a refused checkout still reached Stripe or the store: %+v, %v", pay.last, repo.customers)
	}
	repo.billing["up"] = &domain.Billing{Tier: "pro"}
	repo.customers["up"] = "cus_up"
	if _, err := a.CreatePortal(ctx, up, "cat-owner", "http://localhost:3000/"); !errors.Is(err, domain.ErrOnBehalf) {
		t.Fatalf("portal on behalf: err = %v, want ErrOnBehalf", err)
	}
	// Their own business, even while viewing as someone, is theirs to pay for.
	if _, err := a.CreateCheckout(ctx, up, checkout("cat-uplifter", "price_pro")); err != nil || pay.last.UserID != "up" {
		t.Fatalf("own checkout: err %v, params %+v", err, pay.last)
	}
	if u, err := a.CreatePortal(ctx, up, "cat-uplifter", "http://localhost:3000/"); err != nil || u == "" {
		t.Fatalf("own portal: %q %v", u, err)
	}
}

func TestCreateCheckoutRules(t *testing.T) {
	t.Parallel()
	owner := domain.Caller{UID: "u1", Email: "u1@example.com"}
	tests := []struct {
		name   string
		caller domain.Caller
		in     CheckoutInput
		field  string
		err    error
	}{
		{"anonymous", domain.Caller{}, checkout("cat-now", "price_pro"), "", domain.ErrNotSignedIn},
		{"unknown price", owner, checkout("cat-now", "price_nope"), "priceId", nil},
		{"free tier's empty price", owner, checkout("cat-now", ""), "priceId", nil},
		{"another category", owner, checkout("cat-other", "price_pro"), "", domain.ErrPermissionDenied},
		{"bad success url", owner, CheckoutInput{CategoryID: "cat-now", PriceID: "price_pro", SuccessURL: "javascript:x", CancelURL: "http://a.b/"}, "successUrl", nil},
		{"success url on another host", owner, CheckoutInput{CategoryID: "cat-now", PriceID: "price_pro", SuccessURL: "https://evil.example/", CancelURL: "http://localhost:3000/"}, "successUrl", nil},
		{"cancel url on another host", owner, CheckoutInput{CategoryID: "cat-now", PriceID: "price_pro", SuccessURL: "http://localhost:3000/", CancelURL: "http://localhost:3000.evil.example/"}, "cancelUrl", nil},
		{"own current category", owner, checkout("cat-now", "price_pro"), "", nil},
		{"no category", owner, checkout(" ", "price_pro"), "categoryId", nil},
		{"uplifter for their own business", domain.Caller{UID: "up", Uplifter: true}, checkout("cat-now", "price_pro"), "", nil},
		{"uplifter for someone else", domain.Caller{UID: "up", Uplifter: true}, checkout("cat-other", "price_pro"), "", domain.ErrOnBehalf},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, _, pay := newApp()
			u, err := a.CreateCheckout(context.Background(), tt.caller, tt.in)
			var ve *domain.ValidationError
			switch {
			case tt.field != "":
				if !errors.As(err, &ve) || ve.Field != tt.field {
					t.Fatalf("err = %v, want field %s", err, tt.field)
				}
			case tt.err != nil:
				if !errors.Is(err, tt.err) {
					t.Fatalf("err = %v, want %v", err, tt.err)
				}
			default:
				if err != nil || u != "https://checkout.example/session" {
					t.Fatalf("url %q err %v", u, err)
				}
				if pay.last.Tier != "pro" || pay.last.UserID != tt.caller.UID || !strings.HasPrefix(pay.last.ReferralID, "checkout_") {
					t.Fatalf("params %+v", pay.last)
				}
			}
		})
	}
}

func TestCheckoutReusesCustomerAndUsesTestPage(t *testing.T) {
	t.Parallel()
	a, repo, pay := newApp()
	a.testCheckoutURL = "http://127.0.0.1:9203"
	c := domain.Caller{UID: "u1"}
	var urls []string
	for range 2 {
		u, err := a.CreateCheckout(context.Background(), c, checkout("cat-now", "price_pro"))
		if err != nil {
			t.Fatal(err)
		}
		urls = append(urls, u)
	}
	if pay.customers != 1 || repo.customers["u1"] != "cus_fake" {
		t.Fatalf("customers created %d", pay.customers)
	}
	if !strings.HasPrefix(urls[0], "http://127.0.0.1:9203/test-checkout/") || urls[0] == urls[1] || len(repo.pending) != 2 {
		t.Fatalf("urls %v pending %d", urls, len(repo.pending))
	}
	if p := repo.pending[0]; p.Amount != 2900 || p.Tier != "pro" || p.SuccessURL != "http://localhost:3000/ok" || len(p.Token) < 30 {
		t.Fatalf("pending %+v", p)
	}
}

func TestPortalOnlyForPaid(t *testing.T) {
	t.Parallel()
	a, repo, _ := newApp()
	c := domain.Caller{UID: "u1"}
	ctx := context.Background()
	if _, err := a.CreatePortal(ctx, c, "cat-now", "http://localhost:3000/"); !errors.Is(err, domain.ErrNotPaid) {
		t.Fatalf("no billing: %v", err)
	}
	repo.billing["u1"] = &domain.Billing{Tier: "free"}
	repo.customers["u1"] = "cus_1"
	if _, err := a.CreatePortal(ctx, c, "cat-now", "http://localhost:3000/"); !errors.Is(err, domain.ErrNotPaid) {
		t.Fatalf("free: %v", err)
	}
	repo.billing["u1"] = &domain.Billing{Tier: "pro"}
	if u, err := a.CreatePortal(ctx, c, "cat-now", "http://localhost:3000/"); err != nil || u == "" {
		t.Fatalf("pro: %q %v", u, err)
	}
	if _, err := a.CreatePortal(ctx, c, "cat-other", "http://localhost:3000/"); !errors.Is(err, domain.ErrPermissionDenied) {
		t.Fatalf("other category: %v", err)
	}
}

func TestIdentityVerificationIsTheCallersOwn(t *testing.T) {
	t.Parallel()
	a, _, pay := newApp()
	ctx := context.Background()
	if _, err := a.StartIdentityVerification(ctx, domain.Caller{}, ""); !errors.Is(err, domain.ErrNotSignedIn) {
		t.Fatalf("signed out: %v", err)
	}
	// An uplifter viewing as an owner still verifies themself.
	v, err := a.StartIdentityVerification(ctx, domain.Caller{UID: "uplifter-1", Email: "up@example.com", Uplifter: true}, "")
	if err != nil || v.ClientSecret == "" {
		t.Fatalf("verification: %+v %v", v, err)
	}
	if want := []string{"uplifter-1 up@example.com"}; len(pay.verified) != 1 || pay.verified[0] != want[0] {
		t.Fatalf("started for %v, want %v", pay.verified, want)
	}
	// Stripe's hosted page leads back only to the web app.
	var ve *domain.ValidationError
	for _, bad := range []string{"https://evil.example/settings", "javascript:alert(1)", "/relative"} {
		if _, err := a.StartIdentityVerification(ctx, domain.Caller{UID: "u1"}, bad); !errors.As(err, &ve) || ve.Field != "returnUrl" {
			t.Fatalf("return URL %q: %v", bad, err)
		}
	}
	if _, err := a.StartIdentityVerification(ctx, domain.Caller{UID: "u1"}, "http://localhost:3000/?identity=returned"); err != nil {
		t.Fatal(err)
	}
	if got := pay.verified[len(pay.verified)-1]; got != "u1  http://localhost:3000/?identity=returned" {
		t.Fatalf("Stripe asked with %q", got)
	}
	// A session the browser cannot open (stripe-mock's) is refused, not handed on.
	pay.noSecret = true
	if _, err := a.StartIdentityVerification(ctx, domain.Caller{UID: "u1"}, ""); !errors.Is(err, domain.ErrIdentityUnavailable) {
		t.Fatalf("no client secret: %v", err)
	}
}

// TestIdentityVerificationOnTheLocalTestStack: with the test checkout page
// on, the browser goes to its stand-in for Stripe's page, one unguessable
// token per verification, remembered with the user, session and return URL.
func TestIdentityVerificationOnTheLocalTestStack(t *testing.T) {
	t.Parallel()
	a, repo, pay := newApp()
	a.testCheckoutURL = "http://127.0.0.1:9203"
	pay.noSecret = true
	ctx := context.Background()
	first, err := a.StartIdentityVerification(ctx, domain.Caller{UID: "u1"}, "http://localhost:3000/?identity=returned")
	if err != nil {
		t.Fatal(err)
	}
	second, err := a.StartIdentityVerification(ctx, domain.Caller{UID: "u1"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if first.ClientSecret != "" || !strings.HasPrefix(first.URL, "http://127.0.0.1:9203/test-identity/") || first.URL == second.URL {
		t.Fatalf("sessions %+v %+v", first, second)
	}
	if len(repo.identities) != 2 {
		t.Fatalf("saved %+v", repo.identities)
	}
	p := repo.identities[0]
	if first.URL != "http://127.0.0.1:9203/test-identity/"+p.Token || len(p.Token) < 20 || p.UserID != "u1" ||
		p.SessionID != "vs_fake" || p.ReturnURL != "http://localhost:3000/?identity=returned" {
		t.Fatalf("pending %+v for %s", p, first.URL)
	}
}

func TestSetBilling(t *testing.T) {
	t.Parallel()
	a, repo, _ := newApp()
	ctx := context.Background()
	if _, err := a.SetBilling(ctx, domain.Caller{UID: "u1", Uplifter: true}, "u2", "pro"); !errors.Is(err, domain.ErrPermissionDenied) {
		t.Fatalf("non-admin: %v", err)
	}
	var ve *domain.ValidationError
	if _, err := a.SetBilling(ctx, domain.Caller{UID: "a", Admin: true}, "u2", "gold"); !errors.As(err, &ve) || ve.Field != "tier" {
		t.Fatalf("unknown tier: %v", err)
	}
	// A user id no one has is refused before anything is written: no plan,
	// no audit row for a user who is not there.
	if _, err := a.SetBilling(ctx, domain.Caller{UID: "a", Admin: true}, "ghost", "pro"); !errors.Is(err, domain.ErrUserNotFound) {
		t.Fatalf("unknown user: %v, want ErrUserNotFound", err)
	}
	if repo.changes != 0 || len(repo.audit) != 0 || repo.billing["ghost"] != nil {
		t.Fatal("a refused call changed billing")
	}
	b, err := a.SetBilling(ctx, domain.Caller{UID: "a", Admin: true}, "u2", "pro")
	if err != nil || !b.IsManuallySet || repo.billing["u2"].Tier != "pro" {
		t.Fatalf("%+v %v", b, err)
	}
}

// TestAStaleActiveEventDoesNotBringProBack: Stripe sends events out of
// order, and created times have one-second resolution. A stale
// "subscription active" in the same second as the cancellation used to
// bring Pro back, because the event's own payload was trusted. Every event
// is now judged by the subscription's current state, in any arrival order.
func TestAStaleActiveEventDoesNotBringProBack(t *testing.T) {
	t.Parallel()
	second := time.Date(2026, 3, 8, 7, 0, 0, 0, time.UTC) // both events in this second
	active := domain.PaymentEvent{ID: "evt_active", Type: domain.EventSubscriptionUpdated, Created: second,
		UserID: "u1", CustomerID: "cus_1", SubscriptionID: "sub_1", Status: "active", PriceID: "price_pro"}
	canceled := domain.PaymentEvent{ID: "evt_cancel", Type: domain.EventSubscriptionUpdated, Created: second,
		UserID: "u1", CustomerID: "cus_1", SubscriptionID: "sub_1", Status: "canceled", PriceID: "price_pro"}
	deleted := canceled
	deleted.ID, deleted.Type = "evt_deleted", domain.EventSubscriptionDeleted
	lateCheckout := domain.PaymentEvent{ID: "evt_checkout", Type: domain.EventCheckoutCompleted, Created: second.Add(-time.Minute),
		UserID: "u1", CustomerID: "cus_1", SubscriptionID: "sub_1", Status: "paid", MetadataTier: "pro"}
	nowCanceled := domain.Subscription{ID: "sub_1", Status: "canceled", CustomerID: "cus_1", PriceID: "price_pro", UserID: "u1"}

	for _, tt := range []struct {
		name  string
		order []domain.PaymentEvent
	}{
		{"the cancellation, then the stale active", []domain.PaymentEvent{canceled, active}},
		{"the stale active, then the cancellation", []domain.PaymentEvent{active, canceled}},
		{"the deletion, then the stale active", []domain.PaymentEvent{deleted, active}},
		{"the stale active alone, the cancellation still on its way", []domain.PaymentEvent{active}},
		{"a late checkout of a subscription that has ended", []domain.PaymentEvent{lateCheckout}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, repo, pay := newApp()
			repo.billing["u1"] = &domain.Billing{UserID: "u1", Tier: "pro", SourceTime: second.Add(-time.Hour)}
			pay.subs = map[string]domain.Subscription{"sub_1": nowCanceled}
			pay.events = map[string]domain.PaymentEvent{}
			for _, ev := range tt.order {
				pay.events[ev.ID] = ev
				if err := a.HandleWebhook(context.Background(), []byte(ev.ID), "sig"); err != nil {
					t.Fatal(err)
				}
			}
			if got := repo.billing["u1"].Tier; got != "free" {
				t.Fatalf("tier %q after %d events, want free", got, len(tt.order))
			}
		})
	}

	// The other direction of the same rule: the event carried an older state
	// ("incomplete") and the subscription is active now. Trusting the payload
	// held Pro back. The same case runs through stripe-go and stripe-mock in
	// the service's TestWebhooks, so it does not rest on this fake alone.
	t.Run("a stale incomplete does not hold back a subscription active now", func(t *testing.T) {
		a, repo, pay := newApp()
		pay.subs = map[string]domain.Subscription{"sub_1": {ID: "sub_1", Status: "active", CustomerID: "cus_1", PriceID: "price_pro", UserID: "u1"}}
		ev := active
		ev.Status = "incomplete"
		pay.events = map[string]domain.PaymentEvent{ev.ID: ev}
		if err := a.HandleWebhook(context.Background(), []byte(ev.ID), "sig"); err != nil {
			t.Fatal(err)
		}
		if b := repo.billing["u1"]; b == nil || b.Tier != "pro" || pay.fetches != 1 {
			t.Fatalf("billing %+v after %d reads of the subscription, want pro after 1", b, pay.fetches)
		}
	})

	// A guard, not the finding: when the event and Stripe agree, an upgrade
	// is an upgrade, with or without the read of the current state.
	t.Run("an active subscription still upgrades", func(t *testing.T) {
		a, repo, pay := newApp()
		pay.subs = map[string]domain.Subscription{"sub_1": {ID: "sub_1", Status: "active", CustomerID: "cus_1", PriceID: "price_pro", UserID: "u1"}}
		pay.events = map[string]domain.PaymentEvent{active.ID: active}
		if err := a.HandleWebhook(context.Background(), []byte(active.ID), "sig"); err != nil {
			t.Fatal(err)
		}
		if b := repo.billing["u1"]; b == nil || b.Tier != "pro" {
			t.Fatalf("billing %+v, want pro", b)
		}
	})
}

// TestAReplayedEventCostsNoStripeRead: the id of a handled event is looked up
// before the subscription is read from Stripe, so delivering the same
// signed event again (Stripe's retry, or a replay) is acknowledged without
// another Stripe API call, and changes nothing.
func TestAReplayedEventCostsNoStripeRead(t *testing.T) {
	t.Parallel()
	a, repo, pay := newApp()
	ev := domain.PaymentEvent{ID: "evt_1", Type: domain.EventSubscriptionUpdated, Created: time.Now(),
		UserID: "u1", CustomerID: "cus_1", SubscriptionID: "sub_1", Status: "active", PriceID: "price_pro"}
	pay.events = map[string]domain.PaymentEvent{ev.ID: ev}
	pay.subs = map[string]domain.Subscription{"sub_1": {ID: "sub_1", Status: "active", CustomerID: "cus_1", PriceID: "price_pro", UserID: "u1"}}
	for range 5 {
		if err := a.HandleWebhook(context.Background(), []byte(ev.ID), "sig"); err != nil {
			t.Fatal(err)
		}
	}
	if pay.fetches != 1 || repo.changes != 1 {
		t.Fatalf("5 deliveries of one event: %d Stripe reads and %d changes, want 1 and 1", pay.fetches, repo.changes)
	}
	// Another event of the same subscription is read afresh.
	next := ev
	next.ID = "evt_2"
	pay.events[next.ID] = next
	if err := a.HandleWebhook(context.Background(), []byte(next.ID), "sig"); err != nil || pay.fetches != 2 {
		t.Fatalf("a new event: err %v after %d reads, want 2", err, pay.fetches)
	}
}

// TestStripeUnreachableLeavesTheEventForARetry: when the current state
// cannot be read the webhook fails, nothing is recorded, and Stripe's retry
// applies it later.
func TestStripeUnreachableLeavesTheEventForARetry(t *testing.T) {
	t.Parallel()
	a, repo, pay := newApp()
	ev := domain.PaymentEvent{ID: "evt_1", Type: domain.EventSubscriptionUpdated, Created: time.Now(),
		UserID: "u1", SubscriptionID: "sub_1", Status: "active", PriceID: "price_pro"}
	pay.events = map[string]domain.PaymentEvent{ev.ID: ev}
	pay.subErr = errors.New("connection refused")
	if err := a.HandleWebhook(context.Background(), []byte(ev.ID), "sig"); err == nil {
		t.Fatal("the webhook succeeded without the subscription's state")
	}
	if len(repo.events) != 0 || repo.changes != 0 {
		t.Fatalf("recorded %v, %d changes", repo.events, repo.changes)
	}
	pay.subErr = nil
	pay.subs = map[string]domain.Subscription{"sub_1": {ID: "sub_1", Status: "active", PriceID: "price_pro", UserID: "u1"}}
	if err := a.HandleWebhook(context.Background(), []byte(ev.ID), "sig"); err != nil {
		t.Fatal(err)
	}
	if b := repo.billing["u1"]; b == nil || b.Tier != "pro" {
		t.Fatalf("retry: billing %+v", b)
	}

	// A subscription Stripe does not have is acknowledged, not retried forever.
	gone := domain.PaymentEvent{ID: "evt_gone", Type: domain.EventSubscriptionUpdated, Created: time.Now(),
		UserID: "u2", SubscriptionID: "sub_gone", Status: "active", PriceID: "price_pro"}
	pay.events[gone.ID] = gone
	if err := a.HandleWebhook(context.Background(), []byte(gone.ID), "sig"); err != nil {
		t.Fatal(err)
	}
	if !repo.events["evt_gone"] || repo.billing["u2"] != nil {
		t.Fatalf("unknown subscription: recorded=%v billing=%+v", repo.events["evt_gone"], repo.billing["u2"])
	}
}
