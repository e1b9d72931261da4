package testcheckout

import (
	"context"
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"time"

	stripego "github.com/stripe/stripe-go/v85"

	"uplift.dev/billing/internal/app"
	"uplift.dev/billing/internal/domain"
	"uplift.dev/platform/pagesec"
)

// Identities is what the identity verification page needs from the app.
type Identities interface {
	PendingIdentity(ctx context.Context, token string) (app.PendingIdentity, error)
	CompletePendingIdentity(ctx context.Context, token string) error
}

// identityOutcomes are the outcomes the page offers, each the event Stripe
// sends for it.
var identityOutcomes = map[string]string{
	domain.IdentityVerified:      domain.EventIdentityVerified,
	domain.IdentityRequiresInput: domain.EventIdentityRequiresInput,
	domain.IdentityCanceled:      domain.EventIdentityCanceled,
}

var identityPage = template.Must(template.New("identity").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test identity verification — no real check</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>` + identityStyle + `</style></head>
<body>
<p class="banner" role="alert"><strong>Test identity verification — no real check</strong>. This page exists only on a local test stack: it stands in for Stripe's hosted verification page, takes no document or selfie, and sends Stripe's signed event for the outcome you choose.</p>
<h1>Verify your identity</h1>
<form method="post" action="/test-identity/{{.Token}}/verified"><button type="submit">Verified (test)</button></form>
<form method="post" action="/test-identity/{{.Token}}/requires_input"><button type="submit">Needs more information (test)</button></form>
<form method="post" action="/test-identity/{{.Token}}/canceled"><button type="submit">Cancel verification (test)</button></form>
</body></html>`))

// identityStyle is the identity page's one inline style, allowed by hash.
const identityStyle = `body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}
.banner{background:#fff3cd;border:1px solid #e0c36a;padding:.75rem;border-radius:.5rem}
form{margin:.5rem 0}button{font-size:1rem;padding:.6rem 1.2rem}`

var identityDonePage = template.Must(template.New("done").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test identity verification — done</title></head>
<body><p>Test identity verification finished: {{.}}. You can close this page.</p></body></html>`))

func (h *Handler) showIdentity(w http.ResponseWriter, r *http.Request) {
	p, err := h.Identities.PendingIdentity(r.Context(), r.PathValue("token"))
	if err != nil {
		h.failIdentity(w, err)
		return
	}
	// An outcome redirects to returnUrl, which form-action must allow.
	pagesec.SetPage(w.Header(), pagesec.Policy([]string{identityStyle}, pagesec.Origin(p.ReturnURL)))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = identityPage.Execute(w, map[string]any{"Token": p.Token})
}

func (h *Handler) completeIdentity(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	outcome := r.PathValue("outcome")
	eventType, ok := identityOutcomes[outcome]
	if !ok {
		http.Error(w, "Unknown test outcome.", http.StatusNotFound)
		return
	}
	p, err := h.Identities.PendingIdentity(ctx, r.PathValue("token"))
	if err != nil {
		h.failIdentity(w, err)
		return
	}
	if err := h.Identities.CompletePendingIdentity(ctx, p.Token); err != nil {
		h.failIdentity(w, err)
		return
	}
	payload, err := IdentityEvent(p, eventType, outcome, time.Now())
	if err != nil {
		h.failIdentity(w, err)
		return
	}
	if err := h.send(ctx, payload); err != nil {
		h.failIdentity(w, err)
		return
	}
	if p.ReturnURL == "" {
		pagesec.SetPage(w.Header(), pagesec.Policy(nil))
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = identityDonePage.Execute(w, outcome)
		return
	}
	http.Redirect(w, r, p.ReturnURL, http.StatusSeeOther)
}

// IdentityEvent builds the identity.verification_session event Stripe
// would send for p's session reaching status.
func IdentityEvent(p app.PendingIdentity, eventType, status string, now time.Time) ([]byte, error) {
	session := map[string]any{
		"id": p.SessionID, "object": "identity.verification_session", "status": status, "type": "document",
		"client_reference_id": p.UserID, "metadata": map[string]string{"userId": p.UserID}, "livemode": false,
	}
	if status == domain.IdentityRequiresInput {
		session["last_error"] = map[string]string{"code": "document_unverified_other", "reason": "Test: the document could not be verified."}
	}
	return json.Marshal(map[string]any{
		"id": "evt_test_" + randomHex(), "object": "event", "api_version": stripego.APIVersion,
		"created": now.Unix(), "type": eventType, "livemode": false,
		"data": map[string]any{"object": session},
	})
}

func (h *Handler) failIdentity(w http.ResponseWriter, err error) {
	if errors.Is(err, domain.ErrCheckoutNotFound) {
		http.Error(w, "This test identity verification does not exist or was already finished.", http.StatusNotFound)
		return
	}
	h.Log.Error("test identity verification failed", "err", err)
	http.Error(w, "The test identity verification could not be finished. See the billing service's log.", http.StatusBadGateway)
}
