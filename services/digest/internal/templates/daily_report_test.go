package templates_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"uplift.dev/digest/internal/domain"
)

func str(v string) *string { return &v }

// checkoutAction is a suggested action as the stores service words it.
const checkoutAction = "Orders fell while visits held steady, so fewer visitors bought: check your checkout."

// reportMetrics is a day where orders fell 75 % while sessions held, with
// sessions and conversion known.
func reportMetrics() []domain.ReportMetric {
	return []domain.ReportMetric{
		{Key: "totalSales", Label: "Total sales", Value: str("1089.00"), Average: str("1080.00"), ChangePercent: str("0.8")},
		{Key: "orders", Label: "Orders", Value: str("1"), Average: str("4.0"), ChangePercent: str("-75.0"), Unusual: true},
		{Key: "averageOrderValue", Label: "Average order value", Value: str("1089.00"), Average: str("270.00"), ChangePercent: str("303.3")},
		{Key: "returns", Label: "Returns", Value: str("0.00"), Average: str("0.00")},
		{Key: "sessions", Label: "Sessions", Value: str("120"), Average: str("118.0"), ChangePercent: str("1.7")},
		{Key: "conversionRate", Label: "Conversion rate", Value: str("0.83"), Average: str("3.39"), ChangePercent: str("-75.5"), Unusual: true},
	}
}

func TestDailyReportRendering(t *testing.T) {
	t.Parallel()
	r, signer := unsubRenderer(t)
	hostile := `<script>alert("x")</script>`
	cases := []struct {
		name    string
		rep     domain.DailyReport
		subject string
		// wantBoth must appear in the text and (HTML-escaped) in the HTML.
		wantBoth, wantHTML, wantText, notHTML []string
		preheader                             string
	}{{
		name: "orders fell with sessions steady",
		rep: domain.DailyReport{StoreName: "Clay & Co", Metrics: reportMetrics(), BestSeller: "Camp Stove",
			Headline: "Orders fell 75 % against your 7-day average; sessions held steady, so conversion dropped — check checkout.",
			Notes:    []string{"Conversion rate fell 76 % against your 7-day average."},
			Summary:  "orders fell 75 %", Action: checkoutAction},
		subject:   "Yesterday at Clay & Co: orders fell 75 %",
		preheader: "Orders fell 75 % against your 7-day average; sessions held steady",
		wantBoth: []string{"Saturday 7 March 2026", "Orders fell 75 % against the 7-day average", "Conversion rate fell 76 % against the 7-day average",
			"Conversion rate fell 76 % against your 7-day average.", "$1,089.00", "$1,080.00", "-75.0 %", "+0.8 %", "0.83 %", checkoutAction},
		wantHTML: []string{"Unusual changes", `Unusual</span>`, "Clay &amp; Co", "Suggested action"},
		wantText: []string{"UNUSUAL CHANGES", "- Orders: 1 / 4.0 / -75.0 % (unusual)", "- Sessions: 120 / 118.0 / +1.7 %\n", "SUGGESTED ACTION"},
	}, {
		name: "the stores service's words, escaped",
		rep: domain.DailyReport{StoreName: `Bad <b>Shop</b>`, BestSeller: hostile, Headline: "Sales were 2 % below: " + hostile,
			Summary: "$80.00 in sales, 2 % below your 7-day average", Action: "Feature " + hostile + ", yesterday's best seller.",
			Metrics: []domain.ReportMetric{
				{Key: "totalSales", Label: "Total sales", Value: str("80.00"), Average: str("82.00"), ChangePercent: str("-2.4")},
				{Key: "orders", Label: "Orders", Value: str("4"), Average: str("4.1"), ChangePercent: str("-2.4")},
				{Key: "sessions", Label: "Sessions"},
			}},
		subject:   "Yesterday at Bad <b>Shop</b>: $80.00 in sales, 2 % below your 7-day average",
		preheader: "Sales were 2 % below: &lt;script&gt;",
		wantHTML: []string{"Bad &lt;b&gt;Shop&lt;/b&gt;", "Feature &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;, yesterday&#39;s best seller",
			"not available"},
		wantText: []string{"Feature " + hostile + ", yesterday's best seller", "- Sessions: not available / not available / –"},
		notHTML:  []string{"<script>", "<b>Shop", "Unusual changes", "Unusual</span>"},
	}}
	for _, c := range cases {
		c.rep.CategoryID, c.rep.OwnerUserID, c.rep.Date, c.rep.Currency, c.rep.Status = "c1", "u1", "2026-03-07", "USD", domain.ReportReady
		e, err := domain.NewDailyReport(c.rep, "owner@shop.example")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		m, err := r.Render(e)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if m.Subject != c.subject {
			t.Errorf("%s: subject %q, want %q", c.name, m.Subject, c.subject)
		}
		if !strings.HasPrefix(m.HTML, "<!DOCTYPE html>") || strings.Contains(m.Text, "<p") || !strings.Contains(m.Text, "Uplift · grow your store") {
			t.Errorf("%s: parts mixed up", c.name)
		}
		pre := preheaderRE.FindStringSubmatch(m.HTML)
		if pre == nil || !strings.Contains(pre[1], c.preheader) || strings.Index(m.HTML, pre[0]) > strings.Index(m.HTML, "<table") {
			t.Errorf("%s: preheader %v", c.name, pre)
		}
		for _, w := range c.wantBoth {
			if !strings.Contains(m.Text, w) {
				t.Errorf("%s: text lacks %q", c.name, w)
			}
			if hw := strings.NewReplacer("&", "&amp;", "'", "&#39;", "+", "&#43;").Replace(w); !strings.Contains(m.HTML, hw) {
				t.Errorf("%s: HTML lacks %q", c.name, hw)
			}
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
		// Links: Home and analytics in both parts, nothing else but the
		// unsubscribe link, whose token is the owner's, for this kind.
		for _, l := range []string{"https://app.uplift.example/", "https://app.uplift.example/analytics"} {
			if !strings.Contains(hrefsJoined(m.HTML), l) || !strings.Contains(m.Text, l) {
				t.Errorf("%s: link %s missing", c.name, l)
			}
		}
		u, err := url.Parse(m.Unsubscribe)
		if err != nil || u.Scheme+"://"+u.Host+u.Path != "https://api.uplift.example/email/unsubscribe" {
			t.Fatalf("%s: unsubscribe %q", c.name, m.Unsubscribe)
		}
		claims, err := signer.Verify(u.Query().Get("token"), fixedNow)
		if err != nil || claims.UserID != "u1" || claims.Kind != domain.KindDailyReport || !claims.Expires.Equal(fixedNow.Add(60*24*time.Hour)) {
			t.Fatalf("%s: token %+v %v", c.name, claims, err)
		}
		if !strings.Contains(m.Text, m.Unsubscribe) || !strings.Contains(hrefsJoined(m.HTML), m.Unsubscribe) ||
			!strings.Contains(m.HTML, "Unsubscribe from the Daily Business Report") {
			t.Errorf("%s: unsubscribe link missing from a part", c.name)
		}
		for _, h := range hrefs(m.HTML) {
			if !strings.HasPrefix(h, "https://app.uplift.example/") && h != m.Unsubscribe {
				t.Errorf("%s: unexpected link %q", c.name, h)
			}
		}
	}
}
