package app_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"strconv"
	"testing"
	"time"

	"uplift.dev/digest/internal/app"
	"uplift.dev/digest/internal/domain"
	digest "uplift.dev/digest/internal/service"
	"uplift.dev/digest/internal/templates"
)

// productionRetry is the policy the service runs with by default
// (EMAIL_RETRY_BASE, EMAIL_RETRY_MAX, EMAIL_MAX_ATTEMPTS), read from the
// settings' own defaults so this test follows them.
func productionRetry(t *testing.T) domain.RetryPolicy {
	t.Helper()
	typ := reflect.TypeFor[digest.Settings]()
	def := func(name string) string {
		f, ok := typ.FieldByName(name)
		if !ok {
			t.Fatalf("Settings has no %s", name)
		}
		return f.Tag.Get("default")
	}
	base, err1 := time.ParseDuration(def("EmailRetryBase"))
	maxDelay, err2 := time.ParseDuration(def("EmailRetryMax"))
	attempts, err3 := strconv.Atoi(def("EmailMaxAttempts"))
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatal(err)
	}
	return domain.RetryPolicy{Base: base, Max: maxDelay, MaxAttempts: attempts}
}

// TestATenMinuteSMTPOutage: the relay refuses every connection for 10
// minutes while sign-ups keep queueing welcome emails; once it is back,
// every email is sent exactly once, none is given up. Ten minutes are
// simulated, not waited: the app's clock is injected and moved one second
// at a time, with a sender round each second (the worker polls more often
// than that), under the production retry policy. The real SMTP relay and
// PostgreSQL queue are covered by TestEmailWaitsOutAnSMTPOutage in the
// service's component test, with fast retries.
func TestATenMinuteSMTPOutage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	policy := productionRetry(t)
	r, err := templates.New("https://app.uplift.example")
	if err != nil {
		t.Fatal(err)
	}
	a := app.New(h.store, r, h.mail, policy, slog.New(slog.NewTextHandler(io.Discard, nil)))
	a = a.WithClock(func() time.Time { return h.now })
	ctx := context.Background()

	h.mail.fail = errors.New("dial tcp 127.0.0.1:25: connect: connection refused")
	outage := 10 * time.Minute
	start := h.now
	queued := 0
	for h.now.Sub(start) < outage {
		if h.now.Sub(start)%(20*time.Second) == 0 { // a sign-up every 20 s
			queued++
			if err := a.QueueWelcome(ctx, h.store, app.UserCreated{UserID: fmt.Sprintf("u%d", queued), Email: fmt.Sprintf("o%d@shop.example", queued)}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := a.SendDue(ctx); err != nil {
			t.Fatal(err)
		}
		h.now = h.now.Add(time.Second)
	}
	if len(h.mail.sent) != 0 {
		t.Fatalf("%d sent while the relay was down", len(h.mail.sent))
	}
	h.mail.fail = nil
	back := h.now
	for len(h.mail.sent) < queued && h.now.Sub(back) < 2*policy.Max {
		if _, err := a.SendDue(ctx); err != nil {
			t.Fatal(err)
		}
		h.now = h.now.Add(time.Second)
	}
	lastSent := h.now.Sub(back)
	// More rounds change nothing.
	for range 3600 {
		if _, err := a.SendDue(ctx); err != nil {
			t.Fatal(err)
		}
		h.now = h.now.Add(time.Second)
	}
	perKey := map[string]int{}
	for _, m := range h.mail.sent {
		perKey[m.To]++
	}
	if len(perKey) != queued || len(h.mail.sent) != queued {
		t.Fatalf("%d queued, %d sent to %d addresses", queued, len(h.mail.sent), len(perKey))
	}
	for i := 1; i <= queued; i++ {
		if e := h.store.get(fmt.Sprintf("welcome:u%d", i)); e.Status != domain.StatusSent {
			t.Fatalf("welcome:u%d is %s after %d attempts", i, e.Status, e.Attempts)
		}
	}
	t.Logf("%d emails queued during a 10-minute outage; all sent once, the last %s after the relay came back (policy %s doubling to %s, %d attempts)",
		queued, lastSent, policy.Base, policy.Max, policy.MaxAttempts)
}
