package app_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"uplift.dev/digest/internal/app"
	"uplift.dev/digest/internal/domain"
	"uplift.dev/digest/internal/templates"
)

// memStore is an in-memory Store with the same key and due-time rules as
// the Postgres one.
type memStore struct {
	mu     sync.Mutex
	emails []*domain.Email
	// supMu guards off apart from mu: the sender asks while holding a row.
	supMu sync.Mutex
	off   map[string]bool
}

func (s *memStore) Suppressed(_ context.Context, userID string, kind domain.Kind) (bool, error) {
	s.supMu.Lock()
	defer s.supMu.Unlock()
	return s.off[userID+"/"+string(kind)], nil
}

func (s *memStore) ChangeSubscription(_ context.Context, sup domain.Suppression) (bool, error) {
	s.supMu.Lock()
	defer s.supMu.Unlock()
	if s.off == nil {
		s.off = map[string]bool{}
	}
	k := sup.UserID + "/" + string(sup.Kind)
	changed := s.off[k] != sup.Suppressed
	s.off[k] = sup.Suppressed
	return changed, nil
}

func (s *memStore) Add(_ context.Context, e domain.Email) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, x := range s.emails {
		if x.Key == e.Key {
			return false, nil
		}
	}
	e.ID = int64(len(s.emails) + 1)
	s.emails = append(s.emails, &e)
	return true, nil
}

func (s *memStore) UpdateDue(_ context.Context, now time.Time, limit int, fn func(*domain.Email) bool) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var due []*domain.Email
	for _, x := range s.emails {
		if x.Status == domain.StatusPending && !x.NextAttemptAt.After(now) {
			due = append(due, x)
		}
	}
	slices.SortStableFunc(due, func(a, b *domain.Email) int { return a.NextAttemptAt.Compare(b.NextAttemptAt) })
	due = due[:min(limit, len(due))]
	for _, x := range due {
		c := *x
		if !fn(&c) {
			break
		}
		*x = c
	}
	return len(due), nil
}

func (s *memStore) DeleteUser(_ context.Context, userID string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	before := len(s.emails)
	s.emails = slices.DeleteFunc(s.emails, func(e *domain.Email) bool { return e.UserID == userID && userID != "" })
	return before - len(s.emails), nil
}

func (s *memStore) get(key string) domain.Email {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, x := range s.emails {
		if x.Key == key {
			return *x
		}
	}
	return domain.Email{}
}

// fakeMailer records what it sent and fails while fail is set.
type fakeMailer struct {
	sent []domain.Message
	fail error
}

func (m *fakeMailer) Send(_ context.Context, msg domain.Message) error {
	if m.fail != nil {
		return m.fail
	}
	m.sent = append(m.sent, msg)
	return nil
}

type harness struct {
	app   *app.App
	store *memStore
	mail  *fakeMailer
	now   time.Time
}

var retry = domain.RetryPolicy{Base: time.Minute, Max: 10 * time.Minute, MaxAttempts: 5}

func newHarness(t *testing.T) *harness {
	t.Helper()
	r, err := templates.New("https://app.uplift.example")
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{store: &memStore{}, mail: &fakeMailer{}, now: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	h.app = app.New(h.store, r, h.mail, retry, slog.New(slog.NewTextHandler(io.Discard, nil)))
	h.app = h.app.WithClock(func() time.Time { return h.now })
	return h
}

func (h *harness) sendDue(t *testing.T) int {
	t.Helper()
	n, err := h.app.SendDue(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSuppressedWelcomeQueuesNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	if err := h.app.QueueWelcome(ctx, h.store, app.UserCreated{UserID: "u1", Email: "a@shop.example", SuppressWelcomeEmail: true}); err != nil {
		t.Fatal(err)
	}
	if n := h.sendDue(t); n != 0 || len(h.store.emails) != 0 {
		t.Fatalf("suppressed welcome: sent %d, rows %d", n, len(h.store.emails))
	}
	if err := h.app.QueueWelcome(ctx, h.store, app.UserCreated{UserID: "u2", Email: "b@shop.example", DisplayName: "Bea"}); err != nil {
		t.Fatal(err)
	}
	if n := h.sendDue(t); n != 1 || h.mail.sent[0].To != "b@shop.example" {
		t.Fatalf("welcome: sent %d %+v", n, h.mail.sent)
	}
}

func TestSameEventTwiceSendsOneEmail(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	ev := app.UserCreated{UserID: "u1", Email: "a@shop.example", DisplayName: "Al"}
	ch := app.EmailChanged{UserID: "u1", OldEmail: "a@shop.example", NewEmail: "z@shop.example", At: h.now}
	reset := app.PasswordReset{RequestID: "r1", Email: "z@shop.example", Link: "https://uplift.example/reset?oobCode=x"}
	for range 2 {
		if err := h.app.QueueWelcome(ctx, h.store, ev); err != nil {
			t.Fatal(err)
		}
		if err := h.app.QueueEmailChanged(ctx, h.store, ch); err != nil {
			t.Fatal(err)
		}
		if err := h.app.QueuePasswordReset(ctx, h.store, reset); err != nil {
			t.Fatal(err)
		}
		h.sendDue(t)
	}
	var to []string
	for _, m := range h.mail.sent {
		to = append(to, m.To)
	}
	slices.Sort(to)
	if want := []string{"a@shop.example", "a@shop.example", "z@shop.example", "z@shop.example"}; !slices.Equal(to, want) {
		t.Fatalf("sent to %v, want %v (welcome + notice to old, confirmation + reset to new)", to, want)
	}
}

func TestFailedSendIsRetriedWithBackoffThenSentOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	if err := h.app.QueueWelcome(ctx, h.store, app.UserCreated{UserID: "u1", Email: "a@shop.example"}); err != nil {
		t.Fatal(err)
	}
	h.mail.fail = errors.New("dial tcp 127.0.0.1:25: connection refused")
	start := h.now
	if n := h.sendDue(t); n != 0 {
		t.Fatalf("sent %d while the relay was down", n)
	}
	e := h.store.get("welcome:u1")
	if e.Status != domain.StatusPending || e.Attempts != 1 || !e.NextAttemptAt.Equal(start.Add(time.Minute)) || e.LastError == "" {
		t.Fatalf("after first failure %+v", e)
	}
	// Not due yet: nothing is tried.
	h.now = start.Add(59 * time.Second)
	h.sendDue(t)
	if e := h.store.get("welcome:u1"); e.Attempts != 1 {
		t.Fatalf("retried before its time: %+v", e)
	}
	h.now = start.Add(time.Minute)
	h.sendDue(t)
	if e := h.store.get("welcome:u1"); e.Attempts != 2 || !e.NextAttemptAt.Equal(h.now.Add(2*time.Minute)) {
		t.Fatalf("second backoff %+v", e)
	}
	h.mail.fail = nil
	h.now = h.now.Add(2 * time.Minute)
	if n := h.sendDue(t); n != 1 {
		t.Fatalf("sent %d once the relay was back", n)
	}
	if e := h.store.get("welcome:u1"); e.Status != domain.StatusSent || e.Attempts != 3 || e.LastError != "" {
		t.Fatalf("after success %+v", e)
	}
	// A sent email is never sent again, however long we wait.
	h.now = h.now.Add(24 * time.Hour)
	if n := h.sendDue(t); n != 0 || len(h.mail.sent) != 1 {
		t.Fatalf("resent: %d, total %d", n, len(h.mail.sent))
	}
}

func TestGivesUpAfterMaxAttemptsButKeepsTheRow(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	if err := h.app.QueuePasswordReset(ctx, h.store, app.PasswordReset{RequestID: "r1", Email: "a@shop.example", Link: "https://uplift.example/r?oobCode=s3cret"}); err != nil {
		t.Fatal(err)
	}
	h.mail.fail = errors.New("550 mailbox unavailable")
	for range retry.MaxAttempts {
		h.sendDue(t)
		h.now = h.now.Add(retry.Max)
	}
	e := h.store.get("password-reset:r1")
	if e.Status != domain.StatusFailed || e.Attempts != retry.MaxAttempts {
		t.Fatalf("after max attempts %+v", e)
	}
	h.mail.fail = nil
	if n := h.sendDue(t); n != 0 {
		t.Fatal("a failed email was sent without an operator's say")
	}
}

func TestSentResetLinkIsScrubbedAndDeletedUserForgotten(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	link := "https://uplift.example/r?oobCode=s3cret"
	if err := h.app.QueuePasswordReset(ctx, h.store, app.PasswordReset{RequestID: "r1", UserID: "u1", Email: "a@shop.example", Link: link}); err != nil {
		t.Fatal(err)
	}
	if err := h.app.QueueWelcome(ctx, h.store, app.UserCreated{UserID: "u2", Email: "b@shop.example"}); err != nil {
		t.Fatal(err)
	}
	h.sendDue(t)
	if e := h.store.get("password-reset:r1"); e.Status != domain.StatusSent || e.Params.Link != "" {
		t.Fatalf("sent reset kept its link: %+v", e)
	}
	if err := h.app.ForgetUser(ctx, h.store, "u1"); err != nil {
		t.Fatal(err)
	}
	if len(h.store.emails) != 1 || h.store.emails[0].UserID != "u2" {
		t.Fatalf("left after forgetting u1: %+v", h.store.emails)
	}
}

func TestUnusableInputIsASentinel(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	if err := h.app.QueueWelcome(ctx, h.store, app.UserCreated{UserID: "u1", Email: "nope"}); !errors.Is(err, domain.ErrInvalidAddress) {
		t.Fatalf("bad address: %v", err)
	}
	if err := h.app.QueuePasswordReset(ctx, h.store, app.PasswordReset{RequestID: "r", Email: "a@shop.example", Link: "javascript:x"}); !errors.Is(err, domain.ErrInvalidLink) {
		t.Fatalf("bad link: %v", err)
	}
}
