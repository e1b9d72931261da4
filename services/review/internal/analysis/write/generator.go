package write

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"uplift.dev/review/domain"
	"uplift.dev/review/internal/analysis/page"
	"uplift.dev/review/internal/analysis/review"
	"uplift.dev/review/internal/analysis/words"
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
	// Plan is what a dated idea promises, as facts; its words are written
	// from it, so a plan that holds reads as one (domain.CampaignPlan).
	// Nil for ideas with no dates, and for a model's ideas.
	Plan *domain.CampaignPlan `json:"-"`
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

func (g *detWriter) price(v float64) string { return words.Money(v, g.b.Currency) }

// show is a product's price for people, "" when it has none.
func (g *detWriter) show(p page.Product) string {
	if p.Price <= 0 {
		return ""
	}
	return words.Money(p.Price, words.FirstNonEmpty(p.Currency, g.b.Currency))
}

// band is the usual price band, "$12–$45" or "$19.99" when it is one price.
func (g *detWriter) band() string {
	return words.PriceRange(g.b.Prices.Low, g.b.Prices.High, g.b.Currency)
}

func (g *detWriter) summary() string {
	b := g.b
	if len(b.Products) == 0 {
		desc := words.FirstNonEmpty(b.Description, words.First(b.Headings))
		if desc == "" {
			return fmt.Sprintf("%s is an online store at %s. We could not find its products or prices on the pages we read.", b.StoreName, b.SiteURL)
		}
		return fmt.Sprintf("%s: %s We could not find product prices on the pages we read, so this summary comes from the site's own description.", b.StoreName, strings.TrimRight(words.Truncate(desc, 240), ".")+".")
	}
	what := "products such as " + words.JoinAnd(page.ProductNames(g.b.Products, 3))
	if len(b.ProductTypes) > 0 {
		what = strings.ToLower(words.JoinAnd(b.ProductTypes[:min(3, len(b.ProductTypes))]))
	}
	var sb strings.Builder
	if b.Audience == "" || b.Audience == "online shoppers" {
		fmt.Fprintf(&sb, "%s sells %s online.", b.StoreName, what)
	} else {
		fmt.Fprintf(&sb, "%s sells %s online to %s.", b.StoreName, what, b.Audience)
	}
	if len(b.ProductTypes) > 0 {
		fmt.Fprintf(&sb, " Its catalogue (%s read) includes %s.", words.Plural(len(b.Products), "product", "products"), words.JoinAnd(page.ProductNames(b.Products, 3)))
	} else {
		fmt.Fprintf(&sb, " We read %s.", words.Plural(len(b.Products), "product", "products"))
	}
	if p := b.Prices; p.Count > 0 {
		switch {
		case g.price(p.Min) == g.price(p.Max):
			fmt.Fprintf(&sb, " Prices are %s.", g.price(p.Min))
		case g.price(p.Low) == g.price(p.High):
			fmt.Fprintf(&sb, " Prices run from %s to %s, most at %s.", g.price(p.Min), g.price(p.Max), g.price(p.Low))
		default:
			fmt.Fprintf(&sb, " Prices run from %s to %s, most between %s and %s.", g.price(p.Min), g.price(p.Max), g.price(p.Low), g.price(p.High))
		}
	}
	if b.Description != "" {
		fmt.Fprintf(&sb, " In its own words: \"%s\"", words.Truncate(b.Description, 160))
	}
	return sb.String()
}

// available returns the products that can be bought, in catalogue order.
func (g *detWriter) available() []page.Product {
	var out []page.Product
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

// core returns up to n available products, those priced in the store's
// usual band (and its currency) first, so the copy can say its picks sit
// in that band whenever the catalogue allows.
func (g *detWriter) core(n int, skip ...string) []page.Product {
	var out []page.Product
	for _, inBand := range []bool{true, false} {
		for _, p := range g.available() {
			if len(out) < n && !slices.Contains(skip, p.Name) && (!inBand || g.inBand(p)) &&
				!slices.ContainsFunc(out, func(o page.Product) bool { return o.Name == p.Name }) {
				out = append(out, p)
			}
		}
	}
	return out
}

// inBand is a product priced within the store's usual band, in its currency.
func (g *detWriter) inBand(p page.Product) bool {
	pr := g.b.Prices
	return pr.Count > 0 && g.ownCurrency(p) && p.Price >= pr.Low && p.Price <= pr.High
}

// ownCurrency is a product priced in the currency the store's price
// statistics are written in, so its price can be set against them.
func (g *detWriter) ownCurrency(p page.Product) bool {
	return p.Price > 0 && words.FirstNonEmpty(p.Currency, g.b.Currency) == g.b.Currency
}

// pick is a product as a plan quotes it.
func (g *detWriter) pick(p page.Product) domain.Pick {
	return domain.Pick{Name: p.Name, Price: max(p.Price, 0), Currency: words.FirstNonEmpty(p.Currency, g.b.Currency)}
}

// catalogue is the brief's products as a plan is checked against them.
func (b Brief) catalogue() []domain.Pick {
	g := &detWriter{b: b}
	out := make([]domain.Pick, 0, len(b.Products))
	for _, p := range b.Products {
		out = append(out, g.pick(p))
	}
	return out
}

// cheapest is the cheapest available product in the store's currency.
func (g *detWriter) cheapest() (page.Product, bool) {
	var best page.Product
	for _, p := range g.available() {
		if g.ownCurrency(p) && (best.Name == "" || p.Price < best.Price) {
			best = p
		}
	}
	return best, best.Name != ""
}

// priciest is the dearest available product in the store's currency.
func (g *detWriter) priciest() (page.Product, bool) {
	var best page.Product
	for _, p := range g.available() {
		if g.ownCurrency(p) && p.Price > best.Price {
			best = p
		}
	}
	return best, best.Name != ""
}

func (g *detWriter) lines(ps []page.Product) string {
	var b strings.Builder
	for _, p := range ps {
		if d := g.show(p); d != "" {
			fmt.Fprintf(&b, "• %s — %s\n", p.Name, d)
		} else {
			fmt.Fprintf(&b, "• %s\n", p.Name)
		}
	}
	return b.String()
}

// names are the products' names, all of them.
func names(ps []page.Product) []string { return page.ProductNames(ps, len(ps)) }

func parseDay(s string) (time.Time, bool) {
	t, err := time.Parse(time.DateOnly, s)
	return t, err == nil
}

func day(s string) string {
	t, ok := parseDay(s)
	if !ok {
		return s
	}
	return t.Format(domain.DayLayout)
}

// Campaign lead times, in days before the occasion.
const (
	emailLead    = 10 // the campaign email goes out this early at most
	reminderLead = 3  // the reminder
	lastOrder    = 5  // the last order date that still arrives in time
	minEmailLead = 3  // an occasion closer than this is too late for an email campaign
	minPostLead  = 1  // an occasion closer than this is too late for a post
)

// plan dates a campaign for one occasion from the store's today.
type plan struct {
	today, date time.Time
}

func (g *detWriter) planFor(o BriefDate) (plan, bool) {
	today, ok1 := parseDay(g.b.Today)
	d, ok2 := parseDay(o.Date)
	return plan{today: today, date: d}, ok1 && ok2 && d.After(today)
}

// before is the day n days before the occasion, or false when that day
// has already gone.
func (p plan) before(n int) (time.Time, bool) {
	t := p.date.AddDate(0, 0, -n)
	return t, !t.Before(p.today)
}

// days counts whole days from t to the occasion.
func (p plan) days(t time.Time) int { return int(p.date.Sub(t).Hours() / 24) }

// say names a day for people: "today", "tomorrow" or "Mon Jan 2".
func (p plan) say(t time.Time) string {
	switch t.Sub(p.today).Hours() / 24 {
	case 0:
		return "today (" + t.Format(domain.DayLayout) + ")"
	case 1:
		return "tomorrow (" + t.Format(domain.DayLayout) + ")"
	}
	return t.Format(domain.DayLayout)
}

// facts starts the domain plan of a campaign featuring picks, with the
// store's usual band and whether every pick sits in it.
func (g *detWriter) facts(p plan, o BriefDate, picks []page.Product) domain.CampaignPlan {
	out := domain.CampaignPlan{Today: p.today, Occasion: o.Name, Date: p.date}
	if pr := g.b.Prices; pr.Count > 0 {
		out.Band = &domain.PriceBand{Low: pr.Low, High: pr.High, Currency: g.b.Currency}
		out.PicksInBand = len(picks) > 0 && !slices.ContainsFunc(picks, func(k page.Product) bool { return !g.inBand(k) })
	}
	for _, k := range picks {
		out.Picks = append(out.Picks, g.pick(k))
	}
	return out
}

// emailPlan dates a campaign email: sent emailLead days ahead (today when
// the occasion is closer); for a gift, the last day to order for delivery
// in time (none when it has gone), with the reminder the day before it,
// so the reminder can still say "order by tomorrow"; otherwise the
// reminder reminderLead days ahead. A reminder that would not come after
// the send is left out.
func (g *detWriter) emailPlan(o BriefDate, picks []page.Product) (domain.CampaignPlan, plan, bool) {
	p, ok := g.planFor(o)
	if !ok {
		return domain.CampaignPlan{}, p, false
	}
	f := g.facts(p, o, picks)
	f.Send = p.date.AddDate(0, 0, -emailLead)
	if f.Send.Before(p.today) {
		f.Send = p.today
	}
	reminder, _ := p.before(reminderLead)
	if last, ok := p.before(lastOrder); o.Gift && ok && !last.Before(f.Send) {
		f.LastOrder = last
		reminder = last.AddDate(0, 0, -1)
	}
	if reminder.After(f.Send) {
		f.Reminder = reminder
	}
	return f, p, true
}

// postPlan dates a countdown of posts 14, 7 and 2 days ahead, those still
// to come, or one post today when none is.
func (g *detWriter) postPlan(o BriefDate, picks []page.Product) (domain.CampaignPlan, plan, bool) {
	p, ok := g.planFor(o)
	if !ok {
		return domain.CampaignPlan{}, p, false
	}
	f := g.facts(p, o, picks)
	f.Band, f.PicksInBand = nil, false // the posts quote prices, not the band
	for _, n := range []int{14, 7, 2} {
		if t, ok := p.before(n); ok {
			f.Posts = append(f.Posts, t)
		}
	}
	if len(f.Posts) == 0 {
		f.Posts = []time.Time{p.today}
	}
	return f, p, true
}

func daysAway(n int) string {
	if n == 1 {
		return "tomorrow"
	}
	return fmt.Sprintf("%d days away", n)
}

// nextOccasion returns the first occasion at least lead days away, not
// named skip.
func (g *detWriter) nextOccasion(lead int, skip string) (BriefDate, bool) {
	for _, o := range g.b.Occasions {
		if o.DaysAway >= lead && o.Name != skip {
			return o, true
		}
	}
	return BriefDate{}, false
}

func (g *detWriter) ideas() []IdeaText {
	var out []IdeaText
	used := []string{}
	emailed := ""
	if o, ok := g.nextOccasion(minEmailLead, ""); ok {
		if idea, ok := g.occasionEmail(o, g.core(3)); ok {
			used = append(used, idea.Products...)
			emailed = o.Name
			out = append(out, idea)
		}
	}
	if o, ok := g.nextOccasion(minPostLead, emailed); ok {
		picks := g.core(2, used...)
		if len(picks) == 0 {
			picks = g.core(2)
		}
		if idea, ok := g.occasionSocial(o, picks); ok {
			out = append(out, idea)
		}
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

func (g *detWriter) occasionEmail(o BriefDate, picks []page.Product) (IdeaText, bool) {
	b := g.b
	f, p, ok := g.emailPlan(o, picks)
	if !ok {
		return IdeaText{}, false
	}
	kind := "picks"
	if o.Gift {
		kind = "gift guide"
	}
	title := fmt.Sprintf("%s %s from %s", o.Name, kind, b.StoreName)
	why := fmt.Sprintf("%s is %s (%s).", o.Name, daysAway(p.days(p.today)), day(o.Date))
	if f.Band != nil {
		why = strings.TrimSuffix(why, ".") + ". " + g.bandWords(f, o.Gift)
	}
	subject := fmt.Sprintf("%s is %s — %s", o.Name, day(o.Date), strings.ToLower(kind))
	if len(picks) > 0 {
		subject = fmt.Sprintf("%s: %s and more from %s", o.Name, picks[0].Name, b.StoreName)
	}
	timing := []string{fmt.Sprintf("send %s, %s before", p.say(f.Send), words.Plural(p.days(f.Send), "day", "days"))}
	if !f.Reminder.IsZero() {
		timing = append(timing, "reminder "+p.say(f.Reminder))
	}
	deliver := ""
	switch {
	case !f.LastOrder.IsZero():
		timing = append(timing, "last order date "+p.say(f.LastOrder))
		deliver = fmt.Sprintf("Order by %s so it arrives in time.", f.LastOrder.Format(domain.DayLayout))
	case o.Gift:
		// Honest about the calendar: delivery by the day can no longer
		// be promised, so the email says what still works.
		timing = append(timing, "too late to promise delivery, so the email leads with gift cards and pickup")
		deliver = "Too late for delivery? A gift card arrives instantly."
	}
	list := g.lines(picks)
	if list == "" {
		list = "• everything in the shop: " + b.SiteURL + "\n" // no products could be read: link, never an empty list
	}
	body := fmt.Sprintf("Hi {first_name},\n\n%s is on %s. To make it easy, here are our favourites this season:\n\n%s", o.Name, day(o.Date), list)
	if deliver != "" {
		body += "\n" + deliver
	}
	body += "\n\n" + b.StoreName
	return IdeaText{Title: title, WhyNow: why, Channel: ChannelEmail, SubjectLine: subject, Body: body, Products: names(picks),
		Timing: upperFirst(strings.Join(timing, "; ")) + ".", Plan: &f}, true
}

// bandWords set the store's usual band beside the picks, saying they sit
// in it only when every one does, and otherwise what they cost.
func (g *detWriter) bandWords(f domain.CampaignPlan, gift bool) string {
	out := "Most of your products sell for " + g.band()
	if gift {
		out += ", a comfortable gift budget"
	}
	these, sits, costs := "these picks", "sit", "cost"
	if len(f.Picks) == 1 {
		these, sits, costs = "this pick", "sits", "costs"
	}
	lo, hi := 0.0, 0.0
	for _, k := range f.Picks {
		if k.Price <= 0 || k.Currency != g.b.Currency {
			return out + "." // a price unknown, or in another currency: no claim about the picks
		}
		if lo == 0 || k.Price < lo {
			lo = k.Price
		}
		hi = max(hi, k.Price)
	}
	switch {
	case f.PicksInBand:
		return fmt.Sprintf("%s; %s %s in that band.", out, these, sits)
	case len(f.Picks) > 0:
		return fmt.Sprintf("%s; %s %s %s.", out, these, costs, words.PriceRange(lo, hi, g.b.Currency))
	}
	return out + "."
}

func (g *detWriter) occasionSocial(o BriefDate, picks []page.Product) (IdeaText, bool) {
	b := g.b
	f, p, ok := g.postPlan(o, picks)
	if !ok {
		return IdeaText{}, false
	}
	var posts []string
	for _, t := range f.Posts {
		posts = append(posts, p.say(t))
	}
	title := fmt.Sprintf("Countdown to %s on social", o.Name)
	why := fmt.Sprintf("%s follows on %s (%s); a short series of posts keeps %s in mind between emails.", o.Name, day(o.Date), daysAway(p.days(p.today)), b.StoreName)
	var post strings.Builder
	fmt.Fprintf(&post, "%s is coming (%s). ", o.Name, day(o.Date))
	for i, p := range picks {
		if i > 0 {
			post.WriteString(" Or ")
		}
		if d := g.show(p); d != "" {
			fmt.Fprintf(&post, "%s, %s.", p.Name, d)
		} else {
			fmt.Fprintf(&post, "%s.", p.Name)
		}
	}
	fmt.Fprintf(&post, " Shop now at %s", b.SiteURL)
	count := map[int]string{1: "One post", 2: "Two posts", 3: "Three posts"}[len(posts)]
	return IdeaText{Title: title, WhyNow: why, Channel: ChannelSocial,
		SubjectLine: fmt.Sprintf("%s is coming — which would you pick?", o.Name),
		Body:        post.String(), Products: names(picks),
		Timing: fmt.Sprintf("%s: %s.", count, words.JoinAnd(posts)), Plan: &f}, true
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
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
	case failed[review.CheckEmailCapture] > 0:
		var prods []string
		offer := "10% off your first order"
		if hasEntry {
			prods = []string{entry.Name}
			offer = fmt.Sprintf("10%% off your first order — %s from %s", entry.Name, g.show(entry))
		}
		return IdeaText{Title: "Start a welcome list with a first-order offer", Channel: ChannelOnsite,
			WhyNow: fmt.Sprintf("Your website review found no newsletter sign-up (%d points lost), so visitors who do not buy today are gone for good.", failed[review.CheckEmailCapture]),
			// An on-site idea's lead line is the sign-up box's headline.
			SubjectLine: fmt.Sprintf("Join the %s list — 10%% off your first order", b.StoreName),
			Body: fmt.Sprintf("Footer and exit-intent box: \"Join the %s list: new arrivals first and %s.\" [email] [Subscribe]\nWelcome email: thank them, show your best sellers and the code WELCOME10.",
				b.StoreName, offer),
			Products: prods, Timing: "Put the form live this week, before the next seasonal campaign, so the list grows in time."}
	case failed[review.CheckReviews] > 0:
		return IdeaText{Title: "Ask recent buyers for reviews", Channel: ChannelEmail,
			WhyNow:      fmt.Sprintf("Your product pages show no customer reviews (%d points lost); shoppers who do not know %s look for them before buying.", failed[review.CheckReviews], b.StoreName),
			SubjectLine: fmt.Sprintf("How are you finding your %s?", words.FirstNonEmpty(words.First(names(picks)), "order")),
			Body: fmt.Sprintf("Hi {first_name},\n\nThank you for ordering from %s. Could you spare a minute to tell other shoppers what you think? One line is plenty.\n\n[Write a review]\n\n%s",
				b.StoreName, b.StoreName),
			Products: names(picks), Timing: "Send to every customer 7 days after delivery; start with orders from the last 60 days."}
	case failed[review.CheckShipping] > 0 || failed[review.CheckReturns] > 0:
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
	name := words.FirstNonEmpty(words.First(names(p)), b.StoreName)
	return IdeaText{Title: fmt.Sprintf("The story behind %s", name), Channel: ChannelSocial,
		WhyNow:      fmt.Sprintf("Your site scores %d/100 and already covers the basics; people share stories, not catalogues.", b.Score),
		SubjectLine: fmt.Sprintf("How we make %s", name),
		Body:        fmt.Sprintf("A short video or carousel: where %s comes from, who makes it, one detail customers love. End with \"Find it at %s\".", name, b.SiteURL),
		Products:    names(p), Timing: "Post on your busiest weekday this week; pin it for the month."}
}

func (g *detWriter) starterIdea() (IdeaText, bool) {
	b := g.b
	entry, ok := g.cheapest()
	if !ok || b.Prices.Count < 2 || entry.Price >= b.Prices.Low {
		return IdeaText{}, false
	}
	return IdeaText{Title: fmt.Sprintf("Win new customers with %s", entry.Name), Channel: ChannelAds,
		WhyNow: fmt.Sprintf("Your cheapest product is %s (%s) while most sell for %s: a low-risk first order that introduces new shoppers to %s.",
			entry.Name, g.show(entry), g.band(), b.StoreName),
		SubjectLine: fmt.Sprintf("Try %s for just %s", entry.Name, g.show(entry)),
		Body: fmt.Sprintf("Ad for people who do not know you yet: \"New to %s? Start with %s — %s.\" Link straight to the product page%s. Retarget buyers a week later with your core range.",
			b.StoreName, entry.Name, g.show(entry), urlSuffix(entry.URL)),
		Products: []string{entry.Name}, Timing: "Run for two weeks with a small daily budget; keep it going if the cost per first order is under your margin on it."}, true
}

func (g *detWriter) premiumIdea() (IdeaText, bool) {
	b := g.b
	top, ok := g.priciest()
	if !ok || b.Prices.Count < 2 || top.Price <= b.Prices.High {
		return IdeaText{}, false
	}
	return IdeaText{Title: fmt.Sprintf("Spotlight your flagship: %s", top.Name), Channel: ChannelEmail,
		WhyNow:      fmt.Sprintf("%s is your most expensive product at %s, above your usual %s; one sale is worth several ordinary orders.", top.Name, g.show(top), g.band()),
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
	topic := words.FirstNonEmpty(words.First(b.Headings), "what is new")
	return IdeaText{Title: fmt.Sprintf("A monthly \"new at %s\" email", b.StoreName), Channel: ChannelEmail,
		WhyNow:      fmt.Sprintf("A regular email keeps %s in mind between seasonal dates; your home page leads with \"%s\".", b.StoreName, topic),
		SubjectLine: fmt.Sprintf("New this month at %s", b.StoreName),
		Body:        fmt.Sprintf("Hi {first_name},\n\nHere is what is new at %s this month:\n\n%s\n[Shop now](%s)", b.StoreName, words.FirstNonEmpty(g.lines(picks), "• "+topic+"\n"), b.SiteURL),
		Products:    names(picks), Timing: "First Tuesday of each month, starting next month."}
}
