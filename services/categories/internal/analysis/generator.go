package analysis

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// TextGenerator writes the store summary and campaign ideas from a Brief.
// Everything it may say about the store is in the Brief, so any
// implementation stays grounded in what was read from the website.
type TextGenerator interface {
	Generate(ctx context.Context, b Brief) (Text, error)
}

// Text is what a TextGenerator writes.
type Text struct {
	Summary string     `json:"summary"`
	Ideas   []IdeaText `json:"ideas"`
}

// IdeaText is one campaign idea as written by a generator.
type IdeaText struct {
	Title       string   `json:"title"`
	WhyNow      string   `json:"whyNow"`
	Channel     string   `json:"channel"`
	SubjectLine string   `json:"subjectLine"`
	Body        string   `json:"body"`
	Products    []string `json:"products"`
	Timing      string   `json:"timing"`
}

// Campaign channels.
const (
	ChannelEmail  = "email"
	ChannelSocial = "social"
	ChannelAds    = "ads"
	ChannelOnsite = "onsite"
)

// Deterministic is the built-in TextGenerator: no network, same Brief in,
// same text out. It writes from the store's own products, prices, review
// findings and calendar, so it is useful on its own, not a placeholder.
type Deterministic struct{}

// Generate implements TextGenerator.
func (Deterministic) Generate(_ context.Context, b Brief) (Text, error) {
	g := &detWriter{b: b}
	return Text{Summary: g.summary(), Ideas: g.ideas()}, nil
}

type detWriter struct{ b Brief }

func (g *detWriter) price(v float64) string { return money(v, g.b.Currency) }

func (g *detWriter) summary() string {
	b := g.b
	if len(b.Products) == 0 {
		desc := firstNonEmpty(b.Description, firstOf(b.Headings))
		if desc == "" {
			return fmt.Sprintf("%s is an online store at %s. We could not find its products or prices on the pages we read.", b.StoreName, b.SiteURL)
		}
		return fmt.Sprintf("%s: %s We could not find product prices on the pages we read, so this summary comes from the site's own description.", b.StoreName, strings.TrimRight(truncateWords(desc, 240), ".")+".")
	}
	what := "products such as " + joinAnd(g.names(g.b.Products, 3))
	if len(b.ProductTypes) > 0 {
		what = strings.ToLower(joinAnd(b.ProductTypes[:min(3, len(b.ProductTypes))]))
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s sells %s online to %s.", b.StoreName, what, b.Audience)
	if len(b.ProductTypes) > 0 {
		fmt.Fprintf(&sb, " Its catalogue (%d products read) includes %s.", len(b.Products), joinAnd(g.names(b.Products, 3)))
	} else {
		fmt.Fprintf(&sb, " We read %d products.", len(b.Products))
	}
	if p := b.Prices; p.Count > 0 {
		if p.Min == p.Max {
			fmt.Fprintf(&sb, " Prices are %s.", g.price(p.Min))
		} else {
			fmt.Fprintf(&sb, " Prices run from %s to %s, most between %s and %s.", g.price(p.Min), g.price(p.Max), g.price(p.Low), g.price(p.High))
		}
	}
	if b.Description != "" {
		fmt.Fprintf(&sb, " In its own words: \"%s\"", truncateWords(b.Description, 160))
	}
	return sb.String()
}

func (g *detWriter) names(ps []BriefProduct, n int) []string {
	var out []string
	for _, p := range ps {
		if len(out) == n {
			break
		}
		out = append(out, p.Name)
	}
	return out
}

// available returns the products that can be bought, in catalogue order.
func (g *detWriter) available() []BriefProduct {
	var out []BriefProduct
	for _, p := range g.b.Products {
		if p.Available {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return g.b.Products
	}
	return out
}

// core returns up to n available products priced in the store's usual band.
func (g *detWriter) core(n int, skip ...string) []BriefProduct {
	var out []BriefProduct
	pr := g.b.Prices
	for _, p := range g.available() {
		if len(out) < n && !slices.Contains(skip, p.Name) && (pr.Count == 0 || p.Price == 0 || (p.Price >= pr.Low && p.Price <= pr.High)) {
			out = append(out, p)
		}
	}
	for _, p := range g.available() {
		if len(out) < n && !slices.Contains(skip, p.Name) && !slices.ContainsFunc(out, func(o BriefProduct) bool { return o.Name == p.Name }) {
			out = append(out, p)
		}
	}
	return out
}

func (g *detWriter) cheapest() (BriefProduct, bool) {
	var best BriefProduct
	for _, p := range g.available() {
		if p.Price > 0 && (best.Name == "" || p.Price < best.Price) {
			best = p
		}
	}
	return best, best.Name != ""
}

func (g *detWriter) priciest() (BriefProduct, bool) {
	var best BriefProduct
	for _, p := range g.available() {
		if p.Price > best.Price {
			best = p
		}
	}
	return best, best.Name != ""
}

func (g *detWriter) lines(ps []BriefProduct) string {
	var b strings.Builder
	for _, p := range ps {
		if p.Display != "" {
			fmt.Fprintf(&b, "• %s — %s\n", p.Name, p.Display)
		} else {
			fmt.Fprintf(&b, "• %s\n", p.Name)
		}
	}
	return b.String()
}

func names(ps []BriefProduct) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

func day(s string) string {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return s
	}
	return t.Format("Mon 2 Jan")
}

func shift(s string, days int) string {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return s
	}
	return t.AddDate(0, 0, days).Format("Mon 2 Jan")
}

func (g *detWriter) ideas() []IdeaText {
	b := g.b
	var out []IdeaText
	used := []string{}
	if len(b.Occasions) > 0 {
		o := b.Occasions[0]
		picks := g.core(3)
		used = append(used, names(picks)...)
		out = append(out, g.occasionEmail(o, picks))
	}
	if len(b.Occasions) > 1 {
		o := b.Occasions[1]
		picks := g.core(2, used...)
		if len(picks) == 0 {
			picks = g.core(2)
		}
		used = append(used, names(picks)...)
		out = append(out, g.occasionSocial(o, picks))
	}
	out = append(out, g.fixIdea())
	if idea, ok := g.starterIdea(); ok {
		out = append(out, idea)
	}
	if len(out) < 5 {
		if idea, ok := g.premiumIdea(); ok {
			out = append(out, idea)
		}
	}
	if len(out) < 3 && !slices.ContainsFunc(out, func(i IdeaText) bool { return strings.HasPrefix(i.Title, "The story behind") }) {
		out = append(out, g.storyIdea())
	}
	if len(out) < 3 {
		out = append(out, g.newsletterIdea())
	}
	return out[:min(5, len(out))]
}

func (g *detWriter) occasionEmail(o BriefDate, picks []BriefProduct) IdeaText {
	b := g.b
	lead := min(10, max(o.DaysAway-1, 0))
	kind := "picks"
	if o.Gift {
		kind = "gift guide"
	}
	title := fmt.Sprintf("%s %s from %s", o.Name, kind, b.StoreName)
	why := fmt.Sprintf("%s is %d days away (%s).", o.Name, o.DaysAway, day(o.Date))
	if b.Prices.Count > 0 {
		why += fmt.Sprintf(" Most of your products sell for %s–%s, a comfortable %s budget; these picks sit in that band.", g.price(b.Prices.Low), g.price(b.Prices.High), strings.ToLower(kind))
	}
	subject := fmt.Sprintf("%s is %s — %s", o.Name, day(o.Date), strings.ToLower(kind))
	if len(picks) > 0 {
		subject = fmt.Sprintf("%s: %s and more from %s", o.Name, picks[0].Name, b.StoreName)
	}
	body := fmt.Sprintf("Hi {first_name},\n\n%s is on %s. To make it easy, here are our favourites this season:\n\n%s\nOrder by %s so it arrives in time.\n\n%s",
		o.Name, day(o.Date), g.lines(picks), shift(o.Date, -5), b.StoreName)
	return IdeaText{Title: title, WhyNow: why, Channel: ChannelEmail, SubjectLine: subject, Body: body, Products: names(picks),
		Timing: fmt.Sprintf("Send %s (%d days before), reminder %s; last order date %s.", shift(o.Date, -lead), lead, shift(o.Date, -3), shift(o.Date, -5))}
}

func (g *detWriter) occasionSocial(o BriefDate, picks []BriefProduct) IdeaText {
	b := g.b
	title := fmt.Sprintf("Countdown to %s on social", o.Name)
	why := fmt.Sprintf("%s follows on %s (%d days away); a short series of posts keeps %s in mind between emails.", o.Name, day(o.Date), o.DaysAway, b.StoreName)
	var post strings.Builder
	fmt.Fprintf(&post, "%s is coming (%s). ", o.Name, day(o.Date))
	for i, p := range picks {
		if i > 0 {
			post.WriteString(" Or ")
		}
		if p.Display != "" {
			fmt.Fprintf(&post, "%s, %s.", p.Name, p.Display)
		} else {
			fmt.Fprintf(&post, "%s.", p.Name)
		}
	}
	fmt.Fprintf(&post, " Shop now at %s", b.SiteURL)
	return IdeaText{Title: title, WhyNow: why, Channel: ChannelSocial,
		SubjectLine: fmt.Sprintf("%s is coming — which would you pick?", o.Name),
		Body:        post.String(), Products: names(picks),
		Timing: fmt.Sprintf("Three posts: %s, %s and %s.", shift(o.Date, -14), shift(o.Date, -7), shift(o.Date, -2))}
}

// fixIdea turns the review's costliest conversion or trust gap into a campaign.
func (g *detWriter) fixIdea() IdeaText {
	b := g.b
	failed := map[string]int{}
	for _, f := range b.Findings {
		failed[f.Check] = f.PointsLost
	}
	entry, hasEntry := g.cheapest()
	picks := g.core(3)
	switch {
	case failed[CheckEmailCapture] > 0:
		var prods []string
		offer := "10% off your first order"
		if hasEntry {
			prods = []string{entry.Name}
			offer = fmt.Sprintf("10%% off your first order — %s from %s", entry.Name, entry.Display)
		}
		return IdeaText{Title: "Start a welcome list with a first-order offer", Channel: ChannelOnsite,
			WhyNow:      fmt.Sprintf("Your website review found no newsletter sign-up (%d points lost), so visitors who do not buy today are gone for good.", failed[CheckEmailCapture]),
			SubjectLine: fmt.Sprintf("Welcome to %s — here is 10%% off", b.StoreName),
			Body: fmt.Sprintf("Footer and exit-intent box: \"Join the %s list: new arrivals first and %s.\" [email] [Subscribe]\nWelcome email: thank them, show your best sellers and the code WELCOME10.",
				b.StoreName, offer),
			Products: prods, Timing: "Put the form live this week, before the next seasonal campaign, so the list grows in time."}
	case failed[CheckReviews] > 0:
		return IdeaText{Title: "Ask recent buyers for reviews", Channel: ChannelEmail,
			WhyNow:      fmt.Sprintf("Your product pages show no customer reviews (%d points lost); shoppers who do not know %s look for them before buying.", failed[CheckReviews], b.StoreName),
			SubjectLine: fmt.Sprintf("How are you finding your %s?", firstNonEmpty(firstOf(names(picks)), "order")),
			Body: fmt.Sprintf("Hi {first_name},\n\nThank you for ordering from %s. Could you spare a minute to tell other shoppers what you think? One line is plenty.\n\n[Write a review]\n\n%s",
				b.StoreName, b.StoreName),
			Products: names(picks), Timing: "Send to every customer 7 days after delivery; start with orders from the last 60 days."}
	case failed[CheckShipping] > 0 || failed[CheckReturns] > 0:
		return IdeaText{Title: "Shipping and returns promise bar", Channel: ChannelOnsite,
			WhyNow:      "Your website review found no shipping or returns page linked from the home page; surprise costs are the top reason carts are abandoned.",
			SubjectLine: "Free returns within 30 days",
			Body:        "Announcement bar on every page: \"Ships in 1–3 days · Free 30-day returns · Questions? We answer within a day.\" Link it to new Shipping and Returns pages. Use your real terms.",
			Products:    names(picks), Timing: "This week; it helps every other campaign convert."}
	}
	return g.storyIdea()
}

// storyIdea is a story-led social post about a core product.
func (g *detWriter) storyIdea() IdeaText {
	b := g.b
	p := g.core(1)
	if len(p) > 1 {
		p = p[:1]
	}
	name := firstNonEmpty(firstOf(names(p)), b.StoreName)
	return IdeaText{Title: fmt.Sprintf("The story behind %s", name), Channel: ChannelSocial,
		WhyNow:      fmt.Sprintf("Your site scores %d/100 and already covers the basics; people share stories, not catalogues.", b.Score),
		SubjectLine: fmt.Sprintf("How we make %s", name),
		Body:        fmt.Sprintf("A short video or carousel: where %s comes from, who makes it, one detail customers love. End with \"Find it at %s\".", name, b.SiteURL),
		Products:    names(p), Timing: "Post on your busiest weekday this week; pin it for the month."}
}

func (g *detWriter) starterIdea() (IdeaText, bool) {
	b := g.b
	entry, ok := g.cheapest()
	if !ok || b.Prices.Count < 2 || entry.Price >= b.Prices.Median {
		return IdeaText{}, false
	}
	return IdeaText{Title: fmt.Sprintf("Win new customers with %s", entry.Name), Channel: ChannelAds,
		WhyNow: fmt.Sprintf("Your cheapest product is %s (%s) while most sell for %s–%s: a low-risk first order that introduces new shoppers to %s.",
			entry.Name, entry.Display, g.price(b.Prices.Low), g.price(b.Prices.High), b.StoreName),
		SubjectLine: fmt.Sprintf("Try %s for just %s", entry.Name, entry.Display),
		Body: fmt.Sprintf("Ad for people who do not know you yet: \"New to %s? Start with %s — %s.\" Link straight to the product page%s. Retarget buyers a week later with your core range.",
			b.StoreName, entry.Name, entry.Display, urlSuffix(entry.URL)),
		Products: []string{entry.Name}, Timing: "Run for two weeks with a small daily budget; keep it going if the cost per first order is under your margin on it."}, true
}

func (g *detWriter) premiumIdea() (IdeaText, bool) {
	b := g.b
	top, ok := g.priciest()
	if !ok || b.Prices.Count < 2 || top.Price <= b.Prices.High {
		return IdeaText{}, false
	}
	return IdeaText{Title: fmt.Sprintf("Spotlight your flagship: %s", top.Name), Channel: ChannelEmail,
		WhyNow:      fmt.Sprintf("%s is your most expensive product at %s, above your usual %s–%s; one sale is worth several ordinary orders.", top.Name, top.Display, g.price(b.Prices.Low), g.price(b.Prices.High)),
		SubjectLine: fmt.Sprintf("Why %s is worth it", top.Name),
		Body: fmt.Sprintf("Hi {first_name},\n\n%s is the piece we are proudest of. Here is what goes into it, and why customers keep it for years. %s\n\n[See %s]",
			top.Name, "Show three close-up photos and one customer quote.", top.Name),
		Products: []string{top.Name}, Timing: "Send mid-week, two weeks from now, between seasonal campaigns."}, true
}

func urlSuffix(u string) string {
	if u == "" {
		return ""
	}
	return " (" + u + ")"
}

// newsletterIdea is a monthly email of what is new, for stores with little
// catalogue data to go on.
func (g *detWriter) newsletterIdea() IdeaText {
	b := g.b
	picks := g.core(3)
	topic := firstNonEmpty(firstOf(b.Headings), "what is new")
	return IdeaText{Title: fmt.Sprintf("A monthly \"new at %s\" email", b.StoreName), Channel: ChannelEmail,
		WhyNow:      fmt.Sprintf("A regular email keeps %s in mind between seasonal dates; your home page leads with \"%s\".", b.StoreName, topic),
		SubjectLine: fmt.Sprintf("New this month at %s", b.StoreName),
		Body:        fmt.Sprintf("Hi {first_name},\n\nHere is what is new at %s this month:\n\n%s\n[Shop now](%s)", b.StoreName, firstNonEmpty(g.lines(picks), "• "+topic+"\n"), b.SiteURL),
		Products:    names(picks), Timing: "First Tuesday of each month, starting next month."}
}
