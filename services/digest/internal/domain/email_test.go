package domain_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"uplift.dev/digest/internal/domain"
)

func TestParseAddress(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"owner@example.com", "owner@example.com", true},
		{"  owner@example.com ", "owner@example.com", true},
		{"Owner <owner@example.com>", "", false},
		{"owner@example.com\r\nBcc: x@evil.example", "", false},
		{"not-an-email", "", false},
		{"", "", false},
	} {
		got, err := domain.ParseAddress(tt.in)
		if tt.ok != (err == nil) || got != tt.want {
			t.Errorf("ParseAddress(%q) = %q, %v", tt.in, got, err)
		}
		if !tt.ok && !errors.Is(err, domain.ErrInvalidAddress) {
			t.Errorf("ParseAddress(%q) err = %v, want ErrInvalidAddress", tt.in, err)
		}
	}
}

func TestNewWelcome(t *testing.T) {
	t.Parallel()
	e, err := domain.NewWelcome("u1", "sam@shop.example", "  Sam \n  Smith ")
	if err != nil {
		t.Fatal(err)
	}
	if e.Key != "welcome:u1" || e.Kind != domain.KindWelcome || e.To != "sam@shop.example" ||
		e.Params.DisplayName != "Sam Smith" || e.Status != domain.StatusPending || e.UserID != "u1" {
		t.Fatalf("welcome %+v", e)
	}
	e, _ = domain.NewWelcome("u1", "sam@shop.example", "")
	if e.Params.DisplayName != "sam" {
		t.Fatalf("fallback name %q", e.Params.DisplayName)
	}
	long, _ := domain.NewWelcome("u1", "sam@shop.example", strings.Repeat("é", 200))
	if n := len([]rune(long.Params.DisplayName)); n != 81 {
		t.Fatalf("long name kept %d runes", n)
	}
	if _, err := domain.NewWelcome("", "sam@shop.example", "Sam"); !errors.Is(err, domain.ErrMissingID) {
		t.Fatalf("no user id: %v", err)
	}
	if _, err := domain.NewWelcome("u1", "sam", "Sam"); !errors.Is(err, domain.ErrInvalidAddress) {
		t.Fatalf("bad address: %v", err)
	}
}

func TestNewEmailChanged(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	notice, confirm, err := domain.NewEmailChanged("u1", "old@shop.example", "New@shop.example", at)
	if err != nil {
		t.Fatal(err)
	}
	if notice.To != "old@shop.example" || notice.Kind != domain.KindEmailChanged ||
		confirm.To != "New@shop.example" || confirm.Kind != domain.KindEmailConfirmed || notice.Key == confirm.Key {
		t.Fatalf("notice %+v confirm %+v", notice, confirm)
	}
	again, _, _ := domain.NewEmailChanged("u1", "old@shop.example", "New@shop.example", at)
	later, _, _ := domain.NewEmailChanged("u1", "old@shop.example", "New@shop.example", at.Add(time.Hour))
	if again.Key != notice.Key || later.Key == notice.Key {
		t.Fatalf("keys: same change %q vs %q, later change %q", again.Key, notice.Key, later.Key)
	}
	if _, _, err := domain.NewEmailChanged("u1", "bad", "new@shop.example", at); !errors.Is(err, domain.ErrInvalidAddress) {
		t.Fatalf("bad old: %v", err)
	}
}

func TestNewPasswordReset(t *testing.T) {
	t.Parallel()
	e, err := domain.NewPasswordReset("r1", "", "sam@shop.example", "https://app.example/reset?oobCode=abc&mode=resetPassword")
	if err != nil || e.Key != "password-reset:r1" || e.Params.Link == "" {
		t.Fatalf("%+v %v", e, err)
	}
	for _, link := range []string{"javascript:alert(1)", "/relative", "", "ftp://x.example/"} {
		if _, err := domain.NewPasswordReset("r1", "", "sam@shop.example", link); !errors.Is(err, domain.ErrInvalidLink) {
			t.Errorf("link %q: %v", link, err)
		}
	}
}

func TestRetryPolicyDoublesUpToMax(t *testing.T) {
	t.Parallel()
	p := domain.RetryPolicy{Base: 30 * time.Second, Max: 5 * time.Minute}
	want := []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 5 * time.Minute, 5 * time.Minute}
	for i, w := range want {
		if got := p.Delay(i + 1); got != w {
			t.Errorf("Delay(%d) = %v, want %v", i+1, got, w)
		}
	}
	if got := p.Delay(1000); got != 5*time.Minute {
		t.Errorf("Delay(1000) = %v", got)
	}
}

func TestMarkFailedAndSent(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	link := "https://app.example/reset?oobCode=secret"
	e, _ := domain.NewPasswordReset("r1", "", "sam@shop.example", link)
	p := domain.RetryPolicy{Base: time.Minute, Max: time.Hour, MaxAttempts: 3}
	e.MarkFailed(now, errors.New("dial tcp: refused\nwhile sending "+link), p)
	if e.Status != domain.StatusPending || e.Attempts != 1 || !e.NextAttemptAt.Equal(now.Add(time.Minute)) {
		t.Fatalf("after 1 failure %+v", e)
	}
	if strings.Contains(e.LastError, "secret") || strings.Contains(e.LastError, "\n") || !strings.Contains(e.LastError, "refused") {
		t.Fatalf("last error %q", e.LastError)
	}
	e.MarkFailed(now, errors.New("x"), p)
	if !e.NextAttemptAt.Equal(now.Add(2 * time.Minute)) {
		t.Fatalf("second delay: %v", e.NextAttemptAt.Sub(now))
	}
	e.MarkFailed(now, errors.New("x"), p)
	if e.Status != domain.StatusFailed || e.Attempts != 3 {
		t.Fatalf("after max attempts %+v", e)
	}
	e.Status = domain.StatusPending
	e.MarkSent(now)
	if e.Status != domain.StatusSent || e.Params.Link != "" || e.LastError != "" || !e.SentAt.Equal(now) || e.Attempts != 4 {
		t.Fatalf("sent %+v", e)
	}
}

func TestMessageIDIsStablePerKey(t *testing.T) {
	t.Parallel()
	a, b := domain.MessageID("welcome:u1", "uplift.example"), domain.MessageID("welcome:u1", "uplift.example")
	if a != b || a == domain.MessageID("welcome:u2", "uplift.example") {
		t.Fatalf("ids %s %s", a, b)
	}
	if !strings.HasPrefix(a, "<") || !strings.HasSuffix(a, "@uplift.example>") || strings.Contains(a, "u1") {
		t.Fatalf("id %s", a)
	}
}

// TestSignUpAttemptOncePerAddressAnHour: tries within an hour share one
// notice (the key), in any case of the address; the next hour is told again.
func TestSignUpAttemptOncePerAddressAnHour(t *testing.T) {
	at := time.Date(2026, 3, 2, 9, 5, 0, 0, time.UTC)
	a, err := domain.NewSignUpAttempt("u1", "Owner@Shop.example", at)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := domain.NewSignUpAttempt("u1", "owner@shop.example", at.Add(50*time.Minute))
	c, _ := domain.NewSignUpAttempt("u1", "owner@shop.example", at.Add(time.Hour))
	if a.Kind != domain.KindSignUpAttempt || a.To != "Owner@Shop.example" || a.UserID != "u1" || a.Key != b.Key || a.Key == c.Key {
		t.Fatalf("keys %q %q %q (%+v)", a.Key, b.Key, c.Key, a)
	}
	if _, err := domain.NewSignUpAttempt("", "not an address", at); err == nil {
		t.Fatal("a bad address became an email")
	}
}

func TestShopMovedIsOncePerMove(t *testing.T) {
	at := time.Date(2026, 12, 2, 17, 0, 0, 0, time.UTC)
	a, err := domain.NewShopMoved("u1", "owner@shop.example", "Tea.myshopify.com", at)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := domain.NewShopMoved("u1", "owner@shop.example", "tea.myshopify.com", at)
	c, _ := domain.NewShopMoved("u1", "owner@shop.example", "tea.myshopify.com", at.Add(time.Hour))
	if a.Kind != domain.KindShopMoved || a.Kind.Unsubscribable() || a.Params.Shop != "Tea.myshopify.com" || a.Key != b.Key || a.Key == c.Key {
		t.Fatalf("a %+v b %q c %q", a, b.Key, c.Key)
	}
	for _, bad := range [][2]string{{"", "tea.myshopify.com"}, {"u1", " "}} {
		if _, err := domain.NewShopMoved(bad[0], "owner@shop.example", bad[1], at); !errors.Is(err, domain.ErrMissingID) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
