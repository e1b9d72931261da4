package app_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"uplift.dev/digest/internal/app"
	"uplift.dev/digest/internal/domain"
	"uplift.dev/digest/internal/templates"
)

type countingMetrics struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *countingMetrics) Count(kind domain.Kind, outcome string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[string(kind)+"/"+outcome]++
}

func TestUnsubscribedKindIsSuppressedTransactionalStillGoes(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	signer, _ := domain.NewTokenSigner("app-test-secret-app-test-secret-0123456")
	r, _ := templates.New("https://app.uplift.example")
	r, err := r.WithUnsubscribe("https://api.uplift.example", signer, func() time.Time { return h.now })
	if err != nil {
		t.Fatal(err)
	}
	m := &countingMetrics{}
	h.app = app.New(h.store, r, h.mail, retry, slog.New(slog.NewTextHandler(io.Discard, nil))).WithTokens(signer).WithMetrics(m)
	h.app = h.app.WithClock(func() time.Time { return h.now })

	digest := func(at time.Time) {
		e, err := domain.NewAIDigest(domain.AIDigest{CategoryID: "c1", OwnerUserID: "u1", StoreName: "Clay", At: at}, "a@shop.example")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := h.store.Add(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	digest(h.now)
	if n := h.sendDue(t); n != 1 || h.mail.sent[0].Unsubscribe == "" {
		t.Fatalf("first digest: %d %+v", n, h.mail.sent)
	}

	tok, _ := signer.Sign(domain.Unsubscription{UserID: "u1", Kind: domain.KindAIDigest, Expires: h.now.Add(time.Hour)})
	if u, err := h.app.ChangeSubscription(ctx, tok, true); err != nil || u.Kind != domain.KindAIDigest {
		t.Fatalf("unsubscribe: %+v %v", u, err)
	}
	// Another user's weekly token turns off nothing of u1's.
	other, _ := signer.Sign(domain.Unsubscription{UserID: "u2", Kind: domain.KindWeeklyReview, Expires: h.now.Add(time.Hour)})
	if _, err := h.app.ChangeSubscription(ctx, other, true); err != nil {
		t.Fatal(err)
	}
	digest(h.now.Add(2 * time.Minute))
	if err := h.app.QueuePasswordReset(ctx, h.store, app.PasswordReset{RequestID: "r1", UserID: "u1", Email: "a@shop.example",
		Link: "https://uplift.example/reset?oobCode=x"}); err != nil {
		t.Fatal(err)
	}
	if n := h.sendDue(t); n != 1 || h.mail.sent[1].Subject != "Reset your Uplift password" || h.mail.sent[1].Unsubscribe != "" {
		t.Fatalf("after unsubscribing: sent %d %+v", n, h.mail.sent)
	}
	if got := h.store.get("ai-digest:c1:" + domain.AIDigestMinute(h.now.Add(2*time.Minute))); got.Status != domain.StatusSuppressed {
		t.Fatalf("second digest %+v", got)
	}
	if m.n["ai_digest/sent"] != 1 || m.n["ai_digest/suppressed"] != 1 || m.n["password_reset/sent"] != 1 {
		t.Fatalf("counters %v", m.n)
	}

	// Expired and tampered tokens change nothing.
	h.now = h.now.Add(2 * time.Hour)
	if _, err := h.app.ChangeSubscription(ctx, tok, false); !errors.Is(err, domain.ErrTokenExpired) {
		t.Fatalf("expired: %v", err)
	}
	if _, err := h.app.ChangeSubscription(ctx, tok+"x", false); !errors.Is(err, domain.ErrTokenInvalid) {
		t.Fatalf("tampered: %v", err)
	}
	if off, _ := h.store.Suppressed(ctx, "u1", domain.KindAIDigest); !off {
		t.Fatal("a refused token resubscribed")
	}
}
