package domain_test

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"uplift.dev/digest/internal/domain"
)

const secret = "test-secret-test-secret-test-secret-0123"

func signer(t *testing.T, s string) domain.TokenSigner {
	t.Helper()
	ts, err := domain.NewTokenSigner(s)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func TestUnsubscribeTokens(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	s := signer(t, secret)
	good := domain.Unsubscription{UserID: "u1", Kind: domain.KindAIDigest, Expires: now.Add(domain.UnsubscribeValidFor)}
	tok, err := s.Sign(good)
	if err != nil {
		t.Fatal(err)
	}
	// A token signed for another user or kind, with its payload swapped in.
	swap := func(u domain.Unsubscription) string {
		other, err := s.Sign(u)
		if err != nil {
			t.Fatal(err)
		}
		p, _, _ := strings.Cut(other, ".")
		_, sig, _ := strings.Cut(tok, ".")
		return p + "." + sig
	}
	flip := func(tok string, i int) string {
		b := []byte(tok)
		if b[i] == 'A' {
			b[i] = 'B'
		} else {
			b[i] = 'A'
		}
		return string(b)
	}
	payload, _, _ := strings.Cut(tok, ".")
	raw, _ := base64.RawURLEncoding.DecodeString(payload)
	forged := base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(raw), `"u1"`, `"u2"`, 1))) + tok[len(payload):]

	cases := []struct {
		name  string
		token string
		at    time.Time
		want  error
	}{
		{"fresh", tok, now, nil},
		{"a minute before expiry", tok, good.Expires.Add(-time.Minute), nil},
		{"at expiry", tok, good.Expires, domain.ErrTokenExpired},
		{"expired", tok, now.Add(61 * 24 * time.Hour), domain.ErrTokenExpired},
		{"another kind's payload", swap(domain.Unsubscription{UserID: "u1", Kind: domain.KindWeeklyReview, Expires: good.Expires}), now, domain.ErrTokenInvalid},
		{"another user's payload", swap(domain.Unsubscription{UserID: "u2", Kind: domain.KindAIDigest, Expires: good.Expires}), now, domain.ErrTokenInvalid},
		{"later expiry swapped in", swap(domain.Unsubscription{UserID: "u1", Kind: domain.KindAIDigest, Expires: good.Expires.Add(time.Hour)}), now, domain.ErrTokenInvalid},
		{"forged user", forged, now, domain.ErrTokenInvalid},
		{"tampered payload", flip(tok, 3), now, domain.ErrTokenInvalid},
		{"tampered signature", flip(tok, len(tok)-3), now, domain.ErrTokenInvalid},
		{"no signature", payload, now, domain.ErrTokenInvalid},
		{"empty", "", now, domain.ErrTokenInvalid},
		{"garbage", "a.b", now, domain.ErrTokenInvalid},
	}
	for _, c := range cases {
		got, err := s.Verify(c.token, c.at)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: err %v, want %v", c.name, err, c.want)
			continue
		}
		if err == nil && (got.UserID != "u1" || got.Kind != domain.KindAIDigest || !got.Expires.Equal(good.Expires)) {
			t.Errorf("%s: claims %+v", c.name, got)
		}
	}

	// Another secret refuses the token.
	if _, err := signer(t, strings.Repeat("x", 40)).Verify(tok, now); !errors.Is(err, domain.ErrTokenInvalid) {
		t.Fatalf("other secret: %v", err)
	}
	// Transactional kinds never get a token.
	if _, err := s.Sign(domain.Unsubscription{UserID: "u1", Kind: domain.KindPasswordReset, Expires: good.Expires}); err == nil {
		t.Fatal("signed a token for transactional mail")
	}
	if _, err := domain.NewTokenSigner("short"); err == nil {
		t.Fatal("short secret accepted")
	}
}

func TestUnsubscribeTokenOnTheRealClock(t *testing.T) {
	t.Parallel()
	s := signer(t, secret)
	live, _ := s.Sign(domain.Unsubscription{UserID: "u1", Kind: domain.KindDailyReport, Expires: time.Now().Add(time.Hour)})
	if u, err := s.Verify(live, time.Now()); err != nil || u.Kind != domain.KindDailyReport {
		t.Fatalf("live token: %+v %v", u, err)
	}
	dead, _ := s.Sign(domain.Unsubscription{UserID: "u1", Kind: domain.KindDailyReport, Expires: time.Now().Add(-time.Second)})
	if _, err := s.Verify(dead, time.Now()); !errors.Is(err, domain.ErrTokenExpired) {
		t.Fatalf("expired token: %v", err)
	}
}

func TestProfileSuppressionsFollowOnlyChangedSwitches(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	first := domain.Store{CategoryID: "c", OwnerUserID: "u", At: at}
	if got := domain.ProfileSuppressions(nil, first); len(got) != 2 || got[0].Suppressed || got[1].Suppressed {
		t.Fatalf("first snapshot: %+v", got)
	}
	renamed := first
	renamed.Name, renamed.At = "New name", at.Add(time.Minute)
	if got := domain.ProfileSuppressions(&first, renamed); len(got) != 0 {
		t.Fatalf("a rename changed suppressions: %+v", got)
	}
	off := renamed
	off.DisableBusinessReport, off.At = true, at.Add(2*time.Minute)
	got := domain.ProfileSuppressions(&renamed, off)
	if len(got) != 1 || got[0].Kind != domain.KindDailyReport || !got[0].Suppressed || !got[0].At.Equal(off.At) {
		t.Fatalf("report switched off: %+v", got)
	}
}

func TestAIDigestKeyAndBounds(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 3, 1, 9, 30, 59, 0, time.FixedZone("X", 3600))
	d := domain.AIDigest{CategoryID: "cat", OwnerUserID: "u", StoreName: " Clay\n& Co ", SiteURL: "javascript:alert(1)", At: at,
		Ideas: []domain.Idea{{ID: "../admin", Title: "bad id"}, {ID: "i1", Title: "Winter drop"}}}
	for range 20 {
		d.Insights = append(d.Insights, domain.Insight{Text: "x"})
	}
	e, err := domain.NewAIDigest(d, "owner@shop.example")
	if err != nil {
		t.Fatal(err)
	}
	if e.Key != "ai-digest:cat:2026-03-01T08:30Z" || e.Kind != domain.KindAIDigest || e.UserID != "u" {
		t.Fatalf("email %+v", e)
	}
	if e.Params.StoreName != "Clay & Co" || e.Params.SiteURL != "" || len(e.Params.Insights) != domain.MaxDigestInsights ||
		len(e.Params.Ideas) != 1 || e.Params.Ideas[0].ID != "i1" {
		t.Fatalf("params %+v", e.Params)
	}
	if _, err := domain.NewAIDigest(domain.AIDigest{CategoryID: "cat"}, "owner@shop.example"); !errors.Is(err, domain.ErrMissingID) {
		t.Fatalf("no owner: %v", err)
	}
}
