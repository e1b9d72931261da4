package domain

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseTiers(t *testing.T) {
	t.Parallel()
	const pro = `"pro":{"name":"Pro","sortOrder":1,"prices":{"monthly":{"amount":2900,"stripeId":"price_pro"}}}`
	tests := []struct {
		name, json, wantErr string
	}{
		{"free and pro", `{"free":{"name":"Free","prices":{"monthly":{"amount":0}}},` + pro + `}`, ""},
		{"free missing", `{` + pro + `}`, `"free" is missing`},
		{"free costs", `{"free":{"name":"Free","prices":{"monthly":{"amount":5}}},` + pro + `}`, `"free" must cost 0`},
		{"no name", `{"free":{"prices":{"monthly":{"amount":0}}}}`, "name is required"},
		{"paid without price id", `{"free":{"name":"F"},"pro":{"name":"P","prices":{"monthly":{"amount":100}}}}`, "needs prices.monthly.stripeId"},
		{"negative", `{"free":{"name":"F"},"x":{"name":"X","prices":{"monthly":{"amount":-1,"stripeId":"p"}}}}`, "negative"},
		{"shared price", `{"free":{"name":"F"},"a":{"name":"A","prices":{"monthly":{"amount":1,"stripeId":"p"}}},"b":{"name":"B","prices":{"monthly":{"amount":2,"stripeId":"p"}}}}`, "share stripeId"},
		{"typo in field", `{"free":{"name":"F","sortOrdr":1}}`, "not valid JSON"},
		{"not json", `nope`, "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tiers, err := ParseTiers([]byte(tt.json))
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if id, ok := tiers.ByPriceID("price_pro"); !ok || id != "pro" {
					t.Fatalf("ByPriceID = %q %v", id, ok)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

func TestApplyOrderingAndManual(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	stripe := func(tier string, at time.Time) Change { return Change{Tier: tier, SourceTime: at} }
	tests := []struct {
		name    string
		current *Billing
		change  Change
		want    Decision
	}{
		{"first change", nil, stripe("pro", t0), Applied},
		{"newer stripe", &Billing{Tier: "pro", SourceTime: t0}, stripe("free", t0.Add(time.Second)), Applied},
		{"older stripe ignored", &Billing{Tier: "free", SourceTime: t0}, stripe("pro", t0.Add(-time.Second)), IgnoredOlder},
		{"same second applies", &Billing{Tier: "free", SourceTime: t0}, stripe("pro", t0), Applied},
		{"same state", &Billing{Tier: "pro", SourceTime: t0}, stripe("pro", t0), IgnoredSame},
		{"stripe never overrides manual", &Billing{Tier: "pro", IsManuallySet: true, SourceTime: t0}, stripe("free", t0.Add(time.Hour)), IgnoredManual},
		{"manual overrides newer stripe", &Billing{Tier: "pro", SourceTime: t0.Add(time.Hour)}, Change{Tier: "free", IsManuallySet: true, SourceTime: t0}, Applied},
		{"manual replaces manual", &Billing{Tier: "pro", IsManuallySet: true, SourceTime: t0}, Change{Tier: "free", IsManuallySet: true, SourceTime: t0.Add(time.Second)}, Applied},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Apply(tt.current, tt.change); got != tt.want {
				t.Fatalf("Apply = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestTierFor(t *testing.T) {
	t.Parallel()
	tiers := Tiers{"free": {Name: "Free"}, "pro": {Name: "Pro", Prices: Prices{Monthly: Price{Amount: 2900, StripeID: "price_pro"}}}}
	tests := []struct {
		name string
		ev   PaymentEvent
		tier string
		ok   bool
		err  error
	}{
		{"checkout paid by price", PaymentEvent{Type: EventCheckoutCompleted, Status: "paid", PriceID: "price_pro"}, "pro", true, nil},
		{"checkout paid by metadata", PaymentEvent{Type: EventCheckoutCompleted, Status: "paid", MetadataTier: "pro"}, "pro", true, nil},
		{"checkout unpaid", PaymentEvent{Type: EventCheckoutCompleted, Status: "unpaid", MetadataTier: "pro"}, "", false, nil},
		{"checkout unknown price", PaymentEvent{Type: EventCheckoutCompleted, Status: "paid", PriceID: "price_other"}, "", false, ErrUnknownPrice},
		{"subscription created active", PaymentEvent{Type: EventSubscriptionCreated, Status: "active", PriceID: "price_pro"}, "pro", true, nil},
		{"subscription updated past_due keeps", PaymentEvent{Type: EventSubscriptionUpdated, Status: "past_due", PriceID: "price_pro"}, "pro", true, nil},
		{"subscription updated unpaid", PaymentEvent{Type: EventSubscriptionUpdated, Status: "unpaid", PriceID: "price_pro"}, "free", true, nil},
		{"subscription updated canceled", PaymentEvent{Type: EventSubscriptionUpdated, Status: "canceled", PriceID: "price_pro"}, "free", true, nil},
		{"subscription incomplete", PaymentEvent{Type: EventSubscriptionCreated, Status: "incomplete", PriceID: "price_pro"}, "", false, nil},
		{"subscription deleted", PaymentEvent{Type: EventSubscriptionDeleted, Status: "canceled"}, "free", true, nil},
		{"payment failed alone", PaymentEvent{Type: EventPaymentFailed}, "", false, nil},
		{"other type", PaymentEvent{Type: "customer.created"}, "", false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tier, ok, err := TierFor(tt.ev, tiers)
			if tier != tt.tier || ok != tt.ok || !errors.Is(err, tt.err) {
				t.Fatalf("TierFor = %q %v %v, want %q %v %v", tier, ok, err, tt.tier, tt.ok, tt.err)
			}
		})
	}
}
