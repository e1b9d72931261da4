// Package testcheckout is the local stand-in for Stripe's hosted Checkout
// and Identity verification pages, which stripe-mock does not provide. It
// shows a pending checkout, clearly marked as a test with no real payment,
// and completes it by sending a correctly signed checkout.session.completed
// event to the gateway's webhook route, so the whole flow runs through the
// real webhook path; likewise a pending identity verification, clearly
// marked as a test with no real check, ends with the signed
// identity.verification_session event of the outcome the tester picks. The
// service only mounts it with a test key against a Stripe mock.
package testcheckout

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"strings"
	"time"

	stripego "github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"

	"uplift.dev/billing/internal/app"
	"uplift.dev/billing/internal/domain"
	"uplift.dev/platform/pagesec"
)

// Checkouts is what the page needs from the app.
type Checkouts interface {
	PendingCheckout(ctx context.Context, token string) (app.PendingCheckout, error)
	CompletePendingCheckout(ctx context.Context, token string) error
}

// Handler serves /test-checkout/{token}.
type Handler struct {
	Checkouts  Checkouts
	Identities Identities
	Tiers      domain.Tiers
	// WebhookURL is the gateway's /webhooks/stripe.
	WebhookURL    string
	WebhookSecret string
	HTTP          *http.Client
	Log           *slog.Logger
}

// Routes returns the page's mux; every answer is nosniff, every page framed
// by no one (pagesec).
func (h *Handler) Routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /test-checkout/{token}", h.show)
	mux.HandleFunc("POST /test-checkout/{token}/complete", h.complete)
	mux.HandleFunc("GET /test-identity/{token}", h.showIdentity)
	mux.HandleFunc("POST /test-identity/{token}/{outcome}", h.completeIdentity)
	return pagesec.NoSniff(mux)
}

var page = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test checkout — no real payment</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>` + checkoutStyle + `</style></head>
<body>
<p class="banner" role="alert"><strong>Test checkout — no real payment</strong>. This page exists only on a local test stack.</p>
<h1>{{.Plan}}</h1>
<p>{{.Price}} per month</p>
<form method="post" action="/test-checkout/{{.Token}}/complete">
<button type="submit">Complete test purchase</button>
<a class="button" href="{{.CancelURL}}">Cancel</a>
</form>
</body></html>`))

// checkoutStyle is the checkout page's one inline style, allowed by hash.
const checkoutStyle = `body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}
.banner{background:#fff3cd;border:1px solid #e0c36a;padding:.75rem;border-radius:.5rem}
button,a.button{font-size:1rem;padding:.6rem 1.2rem;margin-right:.5rem}`

func (h *Handler) show(w http.ResponseWriter, r *http.Request) {
	p, err := h.Checkouts.PendingCheckout(r.Context(), r.PathValue("token"))
	if err != nil {
		h.fail(w, err)
		return
	}
	name := p.Tier
	if t, ok := h.Tiers[p.Tier]; ok {
		name = t.Name
	}
	// Completing redirects to successUrl, which form-action must allow.
	pagesec.SetPage(w.Header(), pagesec.Policy([]string{checkoutStyle}, pagesec.Origin(p.SuccessURL)))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = page.Execute(w, map[string]any{
		"Plan": name, "Price": fmt.Sprintf("$%d.%02d", p.Amount/100, p.Amount%100),
		"Token": p.Token, "CancelURL": template.URL(p.CancelURL),
	})
}

func (h *Handler) complete(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	p, err := h.Checkouts.PendingCheckout(ctx, r.PathValue("token"))
	if err != nil {
		h.fail(w, err)
		return
	}
	if err := h.Checkouts.CompletePendingCheckout(ctx, p.Token); err != nil {
		h.fail(w, err)
		return
	}
	payload, err := Event(p, time.Now())
	if err != nil {
		h.fail(w, err)
		return
	}
	if err := h.send(ctx, payload); err != nil {
		h.fail(w, err)
		return
	}
	http.Redirect(w, r, p.SuccessURL, http.StatusSeeOther)
}

// Event builds the checkout.session.completed event Stripe would send for p.
func Event(p app.PendingCheckout, now time.Time) ([]byte, error) {
	meta := map[string]string{"userId": p.UserID, "categoryId": p.CategoryID, "tier": p.Tier, "referralId": p.ReferralID}
	return json.Marshal(map[string]any{
		"id": "evt_test_" + randomHex(), "object": "event", "api_version": stripego.APIVersion,
		"created": now.Unix(), "type": domain.EventCheckoutCompleted, "livemode": false,
		"data": map[string]any{"object": map[string]any{
			"id": "cs_test_" + randomHex(), "object": "checkout.session", "mode": "subscription",
			"status": "complete", "payment_status": "paid", "client_reference_id": p.UserID,
			"customer": p.CustomerID, "metadata": meta, "amount_total": p.Amount, "currency": "usd",
		}},
	})
}

func (h *Handler) send(ctx context.Context, payload []byte) error {
	signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: h.WebhookSecret})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.WebhookURL, strings.NewReader(string(payload)))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Stripe-Signature", signed.Header)
	client := h.HTTP
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("test checkout: post webhook: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("test checkout: webhook answered %s", resp.Status)
	}
	return nil
}

func (h *Handler) fail(w http.ResponseWriter, err error) {
	if errors.Is(err, domain.ErrCheckoutNotFound) {
		http.Error(w, "This test checkout does not exist or was already completed.", http.StatusNotFound)
		return
	}
	h.Log.Error("test checkout failed", "err", err)
	http.Error(w, "The test checkout could not be completed. See the billing service's log.", http.StatusBadGateway)
}

func randomHex() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
