package app

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"

	"uplift.dev/billing/internal/domain"
)

type fakePayments struct {
	customers int
	last      CheckoutParams
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
func (f *fakePayments) ParseEvent([]byte, string) (domain.PaymentEvent, error) {
	return domain.PaymentEvent{}, domain.ErrBadSignature
}

type fakeProfiles struct{ cat, orig string }

func (f fakeProfiles) GetProfile(context.Context, string) (string, string, error) {
	return f.cat, f.orig, nil
}

// fakeRepo keeps just enough state for the use cases.
type fakeRepo struct {
	Repository
	customers map[string]string
	billing   map[string]*domain.Billing
	pending   []PendingCheckout
	changes   int
	audit     []domain.AuditEntry
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
func (f *fakeRepo) Change(_ context.Context, _ string, u string, c domain.Change, audit ...domain.AuditEntry) (domain.Decision, bool, error) {
	f.changes++
	f.audit = append(f.audit, audit...)
	f.billing[u] = &domain.Billing{UserID: u, Tier: c.Tier, IsManuallySet: c.IsManuallySet, SourceTime: c.SourceTime}
	return domain.Applied, false, nil
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
	return &App{Tiers: tiers, Repo: repo, Payments: pay, Profiles: fakeProfiles{"cat-now", "cat-orig"},
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)), ReturnOrigins: origins}, repo, pay
}

func checkout(cat, price string) CheckoutInput {
	return CheckoutInput{CategoryID: cat, PriceID: price, SuccessURL: "http://localhost:3000/ok", CancelURL: "http://localhost:3000/no"}
}

func TestCreateCheckoutRules(t *testing.T) {
	t.Parallel()
	owner := Caller{UID: "u1", Email: "u1@example.com"}
	tests := []struct {
		name   string
		caller Caller
		in     CheckoutInput
		field  string
		err    error
	}{
		{"anonymous", Caller{}, checkout("cat-now", "price_pro"), "", domain.ErrNotSignedIn},
		{"unknown price", owner, checkout("cat-now", "price_nope"), "priceId", nil},
		{"free tier's empty price", owner, checkout("cat-now", ""), "priceId", nil},
		{"another category", owner, checkout("cat-other", "price_pro"), "", domain.ErrPermissionDenied},
		{"bad success url", owner, CheckoutInput{CategoryID: "cat-now", PriceID: "price_pro", SuccessURL: "javascript:x", CancelURL: "http://a.b/"}, "successUrl", nil},
		{"success url on another host", owner, CheckoutInput{CategoryID: "cat-now", PriceID: "price_pro", SuccessURL: "https://evil.example/", CancelURL: "http://localhost:3000/"}, "successUrl", nil},
		{"cancel url on another host", owner, CheckoutInput{CategoryID: "cat-now", PriceID: "price_pro", SuccessURL: "http://localhost:3000/", CancelURL: "http://localhost:3000.evil.example/"}, "cancelUrl", nil},
		{"own current category", owner, checkout("cat-now", "price_pro"), "", nil},
		{"own original category", owner, checkout("cat-orig", "price_pro"), "", nil},
		{"uplifter for anyone", Caller{UID: "up", Uplifter: true}, checkout("cat-other", "price_pro"), "", nil},
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
	a.TestCheckoutURL = "http://127.0.0.1:9203"
	c := Caller{UID: "u1"}
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
	c := Caller{UID: "u1"}
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

func TestSetBilling(t *testing.T) {
	t.Parallel()
	a, repo, _ := newApp()
	ctx := context.Background()
	if _, err := a.SetBilling(ctx, Caller{UID: "u1", Uplifter: true}, "u2", "pro"); !errors.Is(err, domain.ErrPermissionDenied) {
		t.Fatalf("non-admin: %v", err)
	}
	var ve *domain.ValidationError
	if _, err := a.SetBilling(ctx, Caller{UID: "a", Admin: true}, "u2", "gold"); !errors.As(err, &ve) || ve.Field != "tier" {
		t.Fatalf("unknown tier: %v", err)
	}
	if repo.changes != 0 {
		t.Fatal("a refused call changed billing")
	}
	b, err := a.SetBilling(ctx, Caller{UID: "a", Admin: true}, "u2", "pro")
	if err != nil || !b.IsManuallySet || repo.billing["u2"].Tier != "pro" {
		t.Fatalf("%+v %v", b, err)
	}
}
