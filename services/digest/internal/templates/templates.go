// Package templates turns an email row into the words a store owner reads:
// a subject, a plain-text part and an HTML part in Uplift's voice. The HTML
// goes through html/template so user data (names, addresses, links) is
// escaped for its context; copy lives in files/ so it reads as copy.
//
// Transactional mail uses files/layout.*; the emails a person may turn off
// (the AI digest, the weekly website review and the daily report) use
// files/recurring_layout.*: a hidden preheader, the store's name, a single
// column at most 600 px wide with system fonts and big tap targets, and a
// footer with the unsubscribe link. Styles are written inline in the
// templates (no CSS inliner library: the few rules are kept by hand on the
// elements, where every mail client reads them).
package templates

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"net/url"
	"strconv"
	"strings"
	texttemplate "text/template"
	"time"

	"uplift.dev/digest/internal/domain"
	"uplift.dev/platform/clock"
	"uplift.dev/platform/money"
)

//go:embed files/*.tmpl
var files embed.FS

// ResetValidFor is how long a password-reset link works, as the email says.
// Firebase's password-reset action codes expire after one hour.
const ResetValidFor = "1 hour"

var subjects = map[domain.Kind]string{
	domain.KindWelcome:        "Welcome to Uplift — let's grow your store",
	domain.KindEmailChanged:   "Your Uplift sign-in email was changed",
	domain.KindEmailConfirmed: "This is now your Uplift sign-in email",
	domain.KindPasswordReset:  "Reset your Uplift password",
	domain.KindSignUpAttempt:  "Someone tried to sign up to Uplift with your email",
	domain.KindVerifyEmail:    "Confirm your email address for Uplift",
	domain.KindShopMoved:      "Your Shopify shop is now connected to another Uplift account",
	domain.KindAIDigest:       "Your AI digest for {store}: insights and campaign ideas",
	domain.KindDailyReport:    "Yesterday at {store}: {summary}",
	domain.KindWeeklyReview:   "Your website this week: {score}/100 for {store}",
}

// FirstReviewSubject is the subject of a business's first website review:
// the first of the review emails, not a weekly one.
const FirstReviewSubject = "Your first website review is ready"

// preheaders are the one-line previews inboxes show after the subject.
var preheaders = map[domain.Kind]string{
	domain.KindAIDigest: "What Uplift sees for {store} right now, and campaign ideas to act on.",
	// The daily report's preheader is its headline (see dailyReport).
	domain.KindDailyReport: "{headline}",
	// The weekly review's preheader is built from its content (weeklyReview).
	domain.KindWeeklyReview: "{weekly}",
}

// Renderer renders every kind of email; it is safe for concurrent use.
type Renderer struct {
	webURL string
	html   map[domain.Kind]*htmltemplate.Template
	text   map[domain.Kind]*texttemplate.Template

	// The unsubscribe link of non-transactional mail (WithUnsubscribe).
	unsubURL string
	signer   domain.TokenSigner
	now      clock.Clock
}

// WithUnsubscribe sets how unsubscribe links are made: publicAPIURL is the
// gateway's public address (the link is publicAPIURL/email/unsubscribe),
// signer signs the token and now dates its expiry. Without it, rendering an
// email a person may turn off is an error.
func (r *Renderer) WithUnsubscribe(publicAPIURL string, signer domain.TokenSigner, now clock.Clock) (*Renderer, error) {
	u, err := url.Parse(publicAPIURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("PUBLIC_API_URL: %q is not an absolute http(s) URL", publicAPIURL)
	}
	c := *r
	c.unsubURL = strings.TrimRight(publicAPIURL, "/") + "/email/unsubscribe"
	c.signer, c.now = signer, now
	return &c, nil
}

// UnsubscribeURL is the one-click unsubscribe link of kind for userID,
// valid for domain.UnsubscribeValidFor from now.
func (r *Renderer) UnsubscribeURL(userID string, kind domain.Kind) (string, error) {
	if r.unsubURL == "" {
		return "", errors.New("templates: unsubscribe links are not configured")
	}
	tok, err := r.signer.Sign(domain.Unsubscription{UserID: userID, Kind: kind, Expires: r.now.Now().Add(domain.UnsubscribeValidFor)})
	if err != nil {
		return "", fmt.Errorf("templates: unsubscribe token: %w", err)
	}
	return r.unsubURL + "?token=" + url.QueryEscape(tok), nil
}

// New parses the templates once. webURL is where links to the app point;
// it must be an absolute http(s) URL.
func New(webURL string) (*Renderer, error) {
	u, err := url.Parse(webURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("WEB_URL: %q is not an absolute http(s) URL", webURL)
	}
	r := &Renderer{
		webURL: strings.TrimRight(webURL, "/") + "/",
		html:   map[domain.Kind]*htmltemplate.Template{},
		text:   map[domain.Kind]*texttemplate.Template{},
	}
	funcs := map[string]any{
		"button": func(u, label string) map[string]string { return map[string]string{"URL": u, "Label": label} },
		"inc":    func(i int) int { return i + 1 },
	}
	for kind := range subjects {
		layout := "layout"
		if kind.Unsubscribable() {
			layout = "recurring_layout"
		}
		h, err := htmltemplate.New("").Funcs(funcs).ParseFS(files, "files/"+layout+".html.tmpl", "files/"+string(kind)+".html.tmpl")
		if err != nil {
			return nil, fmt.Errorf("templates: %s html: %w", kind, err)
		}
		t, err := texttemplate.New("").Funcs(texttemplate.FuncMap{"inc": funcs["inc"]}).ParseFS(files, "files/"+layout+".txt.tmpl", "files/"+string(kind)+".txt.tmpl")
		if err != nil {
			return nil, fmt.Errorf("templates: %s text: %w", kind, err)
		}
		r.html[kind], r.text[kind] = h, t
	}
	return r, nil
}

// data is what every template sees.
type data struct {
	Subject, WebURL                       string
	DisplayName, OldEmail, NewEmail, Link string
	ValidFor                              string
	// Shop is the shop a shop-moved email names.
	Shop string

	// Non-transactional mail.
	Preheader, KindLabel    string
	StoreName, SiteURL      string
	HomeURL, UnsubscribeURL string
	Insights                []domain.Insight
	Ideas                   []idea

	// The daily report.
	Report *report
	// The weekly website review.
	Weekly *weekly
	// The daily report of a store without data.
	NoData *noData
}

// noData is the daily report of a store without data as the templates
// show it: every line already in words.
type noData struct {
	ConnectionsURL string
	// Website is the website's status in one sentence; WebsiteLink says
	// where to act on it.
	Website, WebsiteLinkLabel, WebsiteLink string
	// Occasion is the next seasonal date in one sentence, empty if none.
	Occasion string
	Idea     *idea
}

// noDataReport turns the report of a store without data into words.
func noDataReport(p domain.Params, webURL string, ideas []idea) *noData {
	n := p.NoData
	out := &noData{ConnectionsURL: webURL + "connections", WebsiteLink: webURL, WebsiteLinkLabel: "See your website review"}
	switch {
	case n.WebsiteStatus == "NO_WEBSITE":
		out.Website = "Add your website in your business profile and Uplift will review it for you."
		out.WebsiteLinkLabel = "Open Uplift"
	case n.WebsiteScore != nil:
		b, ok := bands[n.WebsiteBand]
		if !ok {
			b = [2]string{n.WebsiteBand, ""}
		}
		out.Website = fmt.Sprintf("Your website scored %d/100 (%s) in its last review", *n.WebsiteScore, b[0])
		if n.OpenFindings > 0 {
			out.Website += fmt.Sprintf(", with %d %s to fix.", n.OpenFindings, map[bool]string{true: "thing", false: "things"}[n.OpenFindings == 1])
			out.WebsiteLinkLabel = "See what to fix"
		} else {
			out.Website += ", with nothing left to fix."
		}
	case n.WebsiteStatus == "FAILED":
		out.Website = "We could not read your website in its last review: check that it is online."
	default:
		out.Website = "Your website is being reviewed; the result will be on Home shortly."
	}
	if day, err := time.Parse(time.DateOnly, p.Date); err == nil && n.OccasionName != "" {
		if when, err := time.Parse(time.DateOnly, n.OccasionDate); err == nil {
			today := day.AddDate(0, 0, 1)
			days := int(when.Sub(today).Hours() / 24)
			in := fmt.Sprintf("in %d days", days)
			switch days {
			case 0:
				in = "today"
			case 1:
				in = "tomorrow"
			}
			out.Occasion = fmt.Sprintf("%s is on %s, %s.", n.OccasionName, when.Format("Monday 2 January"), in)
		}
	}
	if len(ideas) > 0 {
		out.Idea = &ideas[0]
	}
	return out
}

// weekly is the weekly website review as the templates show it.
type weekly struct {
	// WeekDay is the week's Monday for people: "Monday 16 November 2026".
	WeekDay                string
	Score                  int
	BandLabel, BandRange   string
	Change                 string
	Fixed, New, Open, Tops []domain.Finding
	NewCount, OpenCount    int
	FixedMore, OpenMore    int
	Idea                   *idea
	// Failure is why this week's review could not be done ("it did not
	// answer in time"); LastScore then says the last known score in words.
	Failure, LastScore string
	// First is the business's first review: nothing to compare with.
	First bool
}

// bands name a score's band for people, with its range (the spec's
// thresholds LOW 5, MED 30, HIGH 70).
var bands = map[string][2]string{
	"poor":   {"Poor", "below 5"},
	"low":    {"Low", "5 to 29"},
	"medium": {"Medium", "30 to 69"},
	"high":   {"High", "70 and above"},
}

// weeklyReview turns the weekly review's content into what the email shows,
// and its one-line preview.
func weeklyReview(p domain.Params, ideas []idea) (*weekly, string) {
	w := &weekly{WeekDay: p.Week, Score: p.Score, Fixed: p.FixedFindings, New: p.NewFindings, Open: p.OpenFindings,
		Tops: p.TopFixes, NewCount: p.NewCount, OpenCount: p.OpenCount,
		FixedMore: max(0, p.FixedCount-domain.Covered(p.FixedFindings)), OpenMore: max(0, p.OpenCount-domain.Covered(p.OpenFindings))}
	if t, err := time.Parse(time.DateOnly, p.Week); err == nil {
		w.WeekDay = t.Format("Monday 2 January 2006")
	}
	b, ok := bands[p.Band]
	if !ok {
		b = [2]string{p.Band, "out of 100"}
	}
	w.BandLabel, w.BandRange = b[0], b[1]
	if p.Failure != "" {
		w.Failure = p.Failure
		w.LastScore = "There is no score yet: this would have been its first review."
		pre := strings.ToUpper(p.Failure[:1]) + p.Failure[1:] + "."
		if p.PreviousScore != nil {
			w.LastScore = fmt.Sprintf("Its last score was %d/100 (%s, %s).", *p.PreviousScore, b[0], b[1])
			pre += fmt.Sprintf(" Your last score was %d/100.", *p.PreviousScore)
		}
		return w, pre + " Here is what to check."
	}
	if len(ideas) > 0 {
		w.Idea = &ideas[0]
	}
	if p.First {
		w.First, w.Change = true, "Each Monday your weekly review shows what changed since."
		things := "things"
		if p.OpenCount == 1 {
			things = "thing"
		}
		return w, fmt.Sprintf("Your website scored %d/100 (%s). %d %s to fix, the ones worth the most points first.",
			p.Score, b[0], p.OpenCount, things)
	}
	w.Change = domain.ScoreChange(p.Score, p.PreviousScore)
	if w.Change == "" {
		w.Change = "Your first weekly review: next week's shows what changed."
	} else {
		w.Change = strings.ToUpper(w.Change[:1]) + w.Change[1:] + "."
	}
	pre := fmt.Sprintf("%d fixed, %d new, %d still open.", p.FixedCount, p.NewCount, p.OpenCount)
	if p.FixedCount > 0 {
		pre = fmt.Sprintf("You fixed %d since last week. %d new, %d still open.", p.FixedCount, p.NewCount, p.OpenCount)
	}
	if ch := domain.ScoreChange(p.Score, p.PreviousScore); ch != "" {
		pre = strings.ToUpper(ch[:1]) + ch[1:] + ". " + pre
	}
	return w, pre
}

// report is the daily report as the templates show it.
type report struct {
	// Day is the report's day for people: "Saturday 7 March 2026".
	Day          string
	Headline     string
	Notes        []string
	Metrics      []metricRow
	Unusual      []metricRow
	Action       string
	AnalyticsURL string
}

// metricRow is one line of the report's table, every value already in
// words: the unusual ones are called out in text, not colour alone.
type metricRow struct {
	Label, Value, Average, Change string
	Unusual                       bool
	// Callout is the unusual change in words: "Orders fell 75 % against
	// the 7-day average".
	Callout string
}

// idea is an idea with its link into the app.
type idea struct {
	domain.Idea
	URL string
}

// Render renders e. An unknown kind is an error (the row stays and is
// retried, so a deploy that adds the template sends it).
func (r *Renderer) Render(e domain.Email) (domain.Message, error) {
	subject, ok := subjects[e.Kind]
	if !ok {
		return domain.Message{}, fmt.Errorf("templates: no template for kind %q", e.Kind)
	}
	store := e.Params.StoreName
	if store == "" {
		store = "your store"
	}
	subject = strings.ReplaceAll(subject, "{store}", store)
	d := data{
		Subject: subject, WebURL: r.webURL,
		DisplayName: e.Params.DisplayName, OldEmail: e.Params.OldEmail, NewEmail: e.Params.NewEmail,
		Link: e.Params.Link, ValidFor: ResetValidFor, Shop: e.Params.Shop,
	}
	var unsubscribe string
	if e.Kind.Unsubscribable() {
		var err error
		if unsubscribe, err = r.UnsubscribeURL(e.UserID, e.Kind); err != nil {
			return domain.Message{}, err
		}
		d.Preheader = strings.ReplaceAll(preheaders[e.Kind], "{store}", store)
		d.KindLabel, d.StoreName, d.SiteURL = e.Kind.Label(), store, e.Params.SiteURL
		d.HomeURL, d.UnsubscribeURL = r.webURL, unsubscribe
		d.Insights = e.Params.Insights
		for _, i := range e.Params.Ideas {
			d.Ideas = append(d.Ideas, idea{Idea: i, URL: r.webURL + "ideas/" + url.PathEscape(i.ID)})
		}
	}
	if e.Kind == domain.KindDailyReport && e.Params.NoData != nil {
		d.NoData = noDataReport(e.Params, r.webURL, d.Ideas)
	}
	if e.Kind == domain.KindDailyReport {
		d.Report = dailyReport(e.Params, r.webURL)
		d.Subject = strings.ReplaceAll(d.Subject, "{summary}", e.Params.Summary)
		subject = d.Subject
		d.Preheader = strings.ReplaceAll(d.Preheader, "{headline}", e.Params.Headline)
	}
	if e.Kind == domain.KindWeeklyReview {
		var pre string
		d.Weekly, pre = weeklyReview(e.Params, d.Ideas)
		switch {
		case e.Params.Failure != "":
			d.Subject = "We couldn't review your website this week, " + store
		case e.Params.First:
			d.Subject = FirstReviewSubject
		}
		d.Subject = strings.ReplaceAll(d.Subject, "{score}", strconv.Itoa(e.Params.Score))
		subject = d.Subject
		d.Preheader = strings.ReplaceAll(d.Preheader, "{weekly}", pre)
	}
	if (e.Kind == domain.KindPasswordReset || e.Kind == domain.KindVerifyEmail) && d.Link == "" {
		return domain.Message{}, fmt.Errorf("templates: %s without a link", e.Kind)
	}
	var html, text bytes.Buffer
	if err := r.html[e.Kind].ExecuteTemplate(&html, "layout", d); err != nil {
		return domain.Message{}, fmt.Errorf("templates: %s html: %w", e.Kind, err)
	}
	if err := r.text[e.Kind].ExecuteTemplate(&text, "layout", d); err != nil {
		return domain.Message{}, fmt.Errorf("templates: %s text: %w", e.Kind, err)
	}
	return domain.Message{Key: e.Key, To: e.To, Subject: subject, Text: text.String(), HTML: html.String(),
		Unsubscribe: unsubscribe}, nil
}

// dailyReport turns the report's numbers into what the email shows.
func dailyReport(p domain.Params, webURL string) *report {
	rep := &report{Headline: p.Headline, Notes: p.Notes, Action: p.Action, AnalyticsURL: webURL + "analytics", Day: p.Date}
	if t, err := time.Parse(time.DateOnly, p.Date); err == nil {
		rep.Day = t.Format("Monday 2 January 2006")
	}
	show := func(key string, v *string) string {
		if v == nil {
			return "not available"
		}
		switch key {
		case "totalSales", "averageOrderValue", "returns":
			return money.Text(*v, p.Currency)
		case "conversionRate":
			return *v + " %"
		}
		return *v
	}
	for _, m := range p.Metrics {
		row := metricRow{Label: m.Label, Value: show(m.Key, m.Value), Average: show(m.Key, m.Average), Change: "–", Unusual: m.Unusual}
		if m.ChangePercent != nil {
			c := *m.ChangePercent
			if !strings.HasPrefix(c, "-") {
				c = "+" + c
			}
			row.Change = c + " %"
		}
		if m.Unusual {
			row.Callout = m.Label + " " + m.Movement() + " against the 7-day average"
			rep.Unusual = append(rep.Unusual, row)
		}
		rep.Metrics = append(rep.Metrics, row)
	}
	return rep
}
