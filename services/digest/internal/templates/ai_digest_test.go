package templates_test

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"uplift.dev/digest/internal/domain"
	"uplift.dev/digest/internal/templates"
)

const testSecret = "test-secret-test-secret-test-secret-0123"

var fixedNow = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

func unsubRenderer(t *testing.T) (*templates.Renderer, domain.TokenSigner) {
	t.Helper()
	s, err := domain.NewTokenSigner(testSecret)
	if err != nil {
		t.Fatal(err)
	}
	r, err := templates.New("https://app.uplift.example")
	if err != nil {
		t.Fatal(err)
	}
	r, err = r.WithUnsubscribe("https://api.uplift.example/", s, func() time.Time { return fixedNow })
	if err != nil {
		t.Fatal(err)
	}
	return r, s
}

var preheaderRE = regexp.MustCompile(`<div style="display:none;[^"]*">([^<]*)`)

func TestAIDigestRendering(t *testing.T) {
	t.Parallel()
	r, signer := unsubRenderer(t)
	hostile := `<script>alert("x")</script>`
	cases := []struct {
		name string
		d    domain.AIDigest
		// wantHTML and wantText must appear; notHTML must not.
		wantHTML, wantText, notHTML []string
		subject                     string
	}{{
		name: "insights and ideas",
		d: domain.AIDigest{CategoryID: "c1", OwnerUserID: "u1", StoreName: "Clay & Co", SiteURL: "https://clay.example/",
			Insights: []domain.Insight{{Text: "Gift sets sell best", Evidence: "/products.json"}},
			Ideas:    []domain.Idea{{ID: "idea-1", Title: "Winter mug drop", Channel: "email", WhyNow: "First frost next week"}}},
		subject:  "Your AI digest for Clay & Co: insights and campaign ideas",
		wantHTML: []string{"Clay &amp; Co", "Gift sets sell best", "From: /products.json", `href="https://app.uplift.example/ideas/idea-1"`, "Why now: First frost next week", `href="https://clay.example/"`},
		wantText: []string{"Clay & Co", "- Gift sets sell best", "From: /products.json", "- Winter mug drop (email)", "https://app.uplift.example/ideas/idea-1", "Open Uplift: https://app.uplift.example/"},
	}, {
		name: "hostile input is escaped",
		d: domain.AIDigest{CategoryID: "c1", OwnerUserID: "u1", StoreName: `Bad <b>Shop</b> "&"`,
			Insights: []domain.Insight{{Text: hostile, Evidence: `<img src=x onerror=alert(1)>`}},
			Ideas:    []domain.Idea{{ID: "idea-2", Title: `<a href="javascript:alert(1)">click</a>`, WhyNow: hostile}}},
		subject:  `Your AI digest for Bad <b>Shop</b> "&": insights and campaign ideas`,
		wantHTML: []string{"Bad &lt;b&gt;Shop&lt;/b&gt; &#34;&amp;&#34;", "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;", "&lt;img src=x onerror=alert(1)&gt;", "&lt;a href=&#34;javascript:alert(1)&#34;&gt;click&lt;/a&gt;"},
		wantText: []string{hostile},
		notHTML:  []string{"<script>", "<img", "<b>Shop", `href="javascript:`},
	}, {
		name:     "nothing yet",
		d:        domain.AIDigest{CategoryID: "c1", OwnerUserID: "u1"},
		subject:  "Your AI digest for your store: insights and campaign ideas",
		wantHTML: []string{"No insights yet", "No campaign ideas yet"},
		wantText: []string{"No insights yet", "No campaign ideas yet"},
	}}
	for _, c := range cases {
		c.d.At = fixedNow
		e, err := domain.NewAIDigest(c.d, "owner@shop.example")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		m, err := r.Render(e)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if m.Subject != c.subject {
			t.Errorf("%s: subject %q", c.name, m.Subject)
		}
		for _, w := range c.wantHTML {
			if !strings.Contains(m.HTML, w) {
				t.Errorf("%s: HTML lacks %q", c.name, w)
			}
		}
		for _, w := range c.wantText {
			if !strings.Contains(m.Text, w) {
				t.Errorf("%s: text lacks %q", c.name, w)
			}
		}
		for _, w := range c.notHTML {
			if strings.Contains(m.HTML, w) {
				t.Errorf("%s: HTML contains %q", c.name, w)
			}
		}
		// The preheader is hidden and comes first in the body.
		pre := preheaderRE.FindStringSubmatch(m.HTML)
		if pre == nil || !strings.Contains(pre[1], "What Uplift sees for") || strings.Index(m.HTML, pre[0]) > strings.Index(m.HTML, "<table") {
			t.Errorf("%s: preheader %v", c.name, pre)
		}
		// Layout for phones: one column no wider than 600 px, system fonts.
		for _, w := range []string{`name="viewport" content="width=device-width, initial-scale=1"`, "max-width:600px", "-apple-system", "padding:14px 24px"} {
			if !strings.Contains(m.HTML, w) {
				t.Errorf("%s: layout lacks %q", c.name, w)
			}
		}
		// Every link goes into the app, to the store's site or to the
		// unsubscribe route; the unsubscribe link is in both parts and in
		// the header, and its token is the user's, for this kind, 60 days.
		u, err := url.Parse(m.Unsubscribe)
		if err != nil || u.Scheme+"://"+u.Host+u.Path != "https://api.uplift.example/email/unsubscribe" {
			t.Fatalf("%s: unsubscribe %q", c.name, m.Unsubscribe)
		}
		claims, err := signer.Verify(u.Query().Get("token"), fixedNow)
		if err != nil || claims.UserID != "u1" || claims.Kind != domain.KindAIDigest || !claims.Expires.Equal(fixedNow.Add(60*24*time.Hour)) {
			t.Fatalf("%s: token %+v %v", c.name, claims, err)
		}
		if !strings.Contains(m.Text, m.Unsubscribe) || !strings.Contains(hrefsJoined(m.HTML), m.Unsubscribe) {
			t.Errorf("%s: unsubscribe link missing from a part", c.name)
		}
		for _, h := range hrefs(m.HTML) {
			if !strings.HasPrefix(h, "https://app.uplift.example/") && h != m.Unsubscribe && h != "https://clay.example/" {
				t.Errorf("%s: unexpected link %q", c.name, h)
			}
		}
		if !strings.Contains(hrefsJoined(m.HTML), "https://app.uplift.example/") {
			t.Errorf("%s: no link to Home", c.name)
		}
	}
}

func hrefsJoined(h string) string { return strings.Join(hrefs(h), "\n") }

func TestTransactionalMailHasNoUnsubscribe(t *testing.T) {
	t.Parallel()
	r, _ := unsubRenderer(t)
	w, _ := domain.NewWelcome("u1", "sam@shop.example", "Sam")
	m, err := r.Render(w)
	if err != nil || m.Unsubscribe != "" || strings.Contains(m.HTML, "nsubscribe") {
		t.Fatalf("welcome carries an unsubscribe: %q %v", m.Unsubscribe, err)
	}
	// Without unsubscribe links configured, a digest cannot be rendered.
	plain, _ := templates.New("https://app.uplift.example")
	e, _ := domain.NewAIDigest(domain.AIDigest{CategoryID: "c", OwnerUserID: "u"}, "a@b.co")
	if _, err := plain.Render(e); err == nil {
		t.Fatal("rendered a digest without an unsubscribe link")
	}
}
