package templates_test

import (
	"errors"
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"uplift.dev/digest/internal/domain"
	"uplift.dev/digest/internal/templates"
)

var hrefRE = regexp.MustCompile(`href="([^"]*)"`)

// hrefs returns the link targets of an HTML part, unescaped as a browser would.
func hrefs(h string) []string {
	var out []string
	for _, m := range hrefRE.FindAllStringSubmatch(h, -1) {
		out = append(out, html.UnescapeString(m[1]))
	}
	return out
}

func render(t *testing.T, e domain.Email) domain.Message {
	t.Helper()
	r, err := templates.New("https://app.uplift.example")
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.Render(e)
	if err != nil {
		t.Fatal(err)
	}
	if m.Subject == "" || m.Key != e.Key || m.To != e.To {
		t.Fatalf("message %+v", m)
	}
	for _, part := range []string{m.Text, m.HTML} {
		if !strings.Contains(part, "grow your store the easy way") || !strings.Contains(part, "https://app.uplift.example/") {
			t.Fatalf("part lacks the footer:\n%s", part)
		}
	}
	if !strings.HasPrefix(m.HTML, "<!DOCTYPE html>") || strings.Contains(m.Text, "<p>") {
		t.Fatalf("parts mixed up:\nTEXT %s\nHTML %s", m.Text, m.HTML)
	}
	return m
}

func TestWelcomeGreetsByNameEscaped(t *testing.T) {
	t.Parallel()
	name := `<script>alert("x")</script> & Co`
	e, _ := domain.NewWelcome("u1", "sam@shop.example", name)
	m := render(t, e)
	if strings.Contains(m.HTML, "<script>") || !strings.Contains(m.HTML, "Hi &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; Co,") {
		t.Fatalf("name not escaped in HTML:\n%s", m.HTML)
	}
	if !strings.Contains(m.Text, "Hi "+name+",") {
		t.Fatalf("text part lacks the name as typed:\n%s", m.Text)
	}
	for _, h := range hrefs(m.HTML) {
		if h != "https://app.uplift.example/" {
			t.Fatalf("welcome links to %q", h)
		}
	}
	if len(hrefs(m.HTML)) < 2 || !strings.Contains(m.Subject, "Welcome to Uplift") {
		t.Fatalf("welcome: links %v subject %q", hrefs(m.HTML), m.Subject)
	}
}

func TestEmailChangedNamesBothAddresses(t *testing.T) {
	t.Parallel()
	notice, confirm, err := domain.NewEmailChanged("u1", "o'brien@shop.example", "new+tag@shop.example", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	m := render(t, notice)
	if !strings.Contains(m.Text, "from o'brien@shop.example to new+tag@shop.example") ||
		!strings.Contains(m.HTML, "o&#39;brien@shop.example") || !strings.Contains(m.Text, "If it wasn't you") {
		t.Fatalf("notice:\n%s\n%s", m.Text, m.HTML)
	}
	c := render(t, confirm)
	if !strings.Contains(c.Text, "new+tag@shop.example is now the email you use to sign in") || c.Subject == m.Subject {
		t.Fatalf("confirmation:\n%s", c.Text)
	}
}

func TestPasswordResetLinkIsExact(t *testing.T) {
	t.Parallel()
	// The shape of a Firebase Admin SDK reset link: several parameters and
	// an already percent-encoded continue URL, which must survive as is.
	link := "https://uplift.example/__/auth/action?mode=resetPassword&oobCode=AbC-123_x&apiKey=k&continueUrl=https%3A%2F%2Fapp.example%2Freset&lang=en"
	e, err := domain.NewPasswordReset("r1", "", "sam@shop.example", link)
	if err != nil {
		t.Fatal(err)
	}
	m := render(t, e)
	var found int
	for _, h := range hrefs(m.HTML) {
		if h == link {
			found++
		}
	}
	if found != 2 {
		t.Fatalf("reset link %q found %d times in %v", link, found, hrefs(m.HTML))
	}
	if !strings.Contains(m.HTML, "mode=resetPassword&amp;oobCode") || !strings.Contains(m.Text, link) || !strings.Contains(m.Text, templates.ResetValidFor) {
		t.Fatalf("reset:\n%s\n%s", m.Text, m.HTML)
	}
	// Markup in a link is escaped, never interpreted.
	e.Params.Link = `https://uplift.example/reset?x="><script>alert(1)</script>`
	if m := render(t, e); strings.Contains(m.HTML, "<script>") {
		t.Fatalf("link broke out of its attribute:\n%s", m.HTML)
	}
	e.Params.Link = ""
	r, _ := templates.New("https://app.uplift.example")
	if _, err := r.Render(e); err == nil {
		t.Fatal("rendered a reset email without a link")
	}
}

func TestRejectsBadWebURLAndUnknownKind(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"", "localhost:3000", "javascript:alert(1)"} {
		if _, err := templates.New(u); err == nil {
			t.Errorf("accepted WEB_URL %q", u)
		}
	}
	r, _ := templates.New("http://localhost:3000")
	if _, err := r.Render(domain.Email{Kind: "nope", To: "a@b.co"}); err == nil {
		t.Fatal("rendered an unknown kind")
	}
}

// TestEmailVerification: a web sign-up's first email,
// since the spec's sign-up suppresses the welcome: the verification link,
// exactly, once per account, transactional (no unsubscribe).
func TestEmailVerification(t *testing.T) {
	t.Parallel()
	link := "http://127.0.0.1:9099/emulator/action?mode=verifyEmail&lang=en&oobCode=XyZ_9&apiKey=fake&continueUrl=http%3A%2F%2Flocalhost%3A3000"
	e, err := domain.NewEmailVerification("u1", "sam@shop.example", link)
	if err != nil {
		t.Fatal(err)
	}
	if e.Key != "verify-email:u1" || e.Kind.Unsubscribable() {
		t.Fatalf("key %q, unsubscribable %v", e.Key, e.Kind.Unsubscribable())
	}
	m := render(t, e)
	if m.Subject != "Confirm your email address for Uplift" || m.Unsubscribe != "" {
		t.Fatalf("subject %q unsubscribe %q", m.Subject, m.Unsubscribe)
	}
	found := 0
	for _, h := range hrefs(m.HTML) {
		if h == link {
			found++
		}
	}
	if found != 2 || !strings.Contains(m.Text, link) || !strings.Contains(m.Text, "Confirm") && !strings.Contains(m.Text, "confirm") {
		t.Fatalf("verification link %q found %d times:\n%s", link, found, m.Text)
	}
	for _, bad := range []string{"", "javascript:alert(1)", "/relative"} {
		if _, err := domain.NewEmailVerification("u1", "sam@shop.example", bad); !errors.Is(err, domain.ErrInvalidLink) {
			t.Errorf("link %q: %v", bad, err)
		}
	}
	e.MarkSent(time.Now())
	if e.Params.Link != "" {
		t.Error("a sent verification email keeps its link")
	}
}

func TestShopMovedNamesTheShopAndTheWayBack(t *testing.T) {
	t.Parallel()
	e, err := domain.NewShopMoved("u1", "sam@shop.example", "tea<b>.myshopify.com", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	m := render(t, e)
	if m.Subject != "Your Shopify shop is now connected to another Uplift account" || m.Unsubscribe != "" {
		t.Fatalf("subject %q unsubscribe %q", m.Subject, m.Unsubscribe)
	}
	if !strings.Contains(m.HTML, "tea&lt;b&gt;.myshopify.com") || strings.Contains(m.HTML, "tea<b>") ||
		!strings.Contains(m.Text, "tea<b>.myshopify.com") {
		t.Fatalf("the shop is not named, escaped for HTML:\n%s", m.HTML)
	}
	if !slices.Contains(hrefs(m.HTML), "https://app.uplift.example/connections") ||
		!strings.Contains(m.Text, "https://app.uplift.example/connections") {
		t.Fatalf("no way back to Connections:\n%s\n%s", m.Text, hrefsJoined(m.HTML))
	}
}
