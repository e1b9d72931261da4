// Package write turns a reviewed site into words: the brief a text
// generator sees, the store summary, insights and campaign ideas dated
// against the calendar.
package write

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"uplift.dev/review/domain"
	"uplift.dev/review/internal/analysis/page"
	"uplift.dev/review/internal/analysis/review"
	"uplift.dev/review/internal/analysis/site"
	"uplift.dev/review/internal/analysis/words"
)

// Brief is what a TextGenerator knows about a store: only facts read from
// its website, so generated text stays grounded in this store.
type Brief struct {
	StoreName    string         `json:"storeName"`
	SiteURL      string         `json:"siteUrl"`
	Title        string         `json:"title"`
	Description  string         `json:"description"`
	Headings     []string       `json:"headings"`
	Market       string         `json:"market"`
	Currency     string         `json:"currency"`
	Audience     string         `json:"audience"`
	ProductTypes []string       `json:"productTypes"`
	Products     []page.Product `json:"products"` // each with its currency
	Prices       PriceStats     `json:"prices"`
	Score        int            `json:"score"`
	Findings     []BriefFinding `json:"findings"` // failed checks, most points lost first
	Occasions    []BriefDate    `json:"occasions"`
	Today        string         `json:"today"` // YYYY-MM-DD
}

// PriceStats summarise the catalogue's prices.
type PriceStats struct {
	Count  int     `json:"count"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	Median float64 `json:"median"`
	Low    float64 `json:"lowQuartile"`
	High   float64 `json:"highQuartile"`
}

// BriefFinding is a failed review check.
type BriefFinding struct {
	Check      string `json:"check"`
	Title      string `json:"title"`
	PointsLost int    `json:"pointsLost"`
}

// BriefDate is an upcoming occasion.
type BriefDate struct {
	Name     string `json:"name"`
	Date     string `json:"date"` // YYYY-MM-DD
	DaysAway int    `json:"daysAway"`
	Gift     bool   `json:"gift"`
}

// maxBriefProducts bounds the products sent to a generator.
const maxBriefProducts = 40

func BuildBrief(s *site.Site, rv domain.Review, now time.Time) Brief {
	cat := s.Catalogue
	b := Brief{
		StoreName: review.StoreName(s), SiteURL: s.URL, Title: s.Home.Title,
		Description: words.FirstNonEmpty(s.Home.MetaDesc, s.Home.OG["og:description"], words.First(s.Home.Paragraphs)),
		Currency:    cat.Currency, Score: rv.Score, Today: now.Format(time.DateOnly),
		ProductTypes: page.TopTypes(cat.Products, 5), Prices: priceStats(cat.Products),
	}
	b.Market = marketOf(cat.Currency, s.URL, s.Home.Lang)
	for _, h := range append(append([]string{}, s.Home.H1...), s.Home.H2...) {
		if h != "" && len(b.Headings) < 10 && !slices.Contains(b.Headings, h) {
			b.Headings = append(b.Headings, h)
		}
	}
	for _, p := range cat.Products[:min(maxBriefProducts, len(cat.Products))] {
		p.Currency = words.FirstNonEmpty(p.Currency, cat.Currency)
		b.Products = append(b.Products, p)
	}
	b.Audience = audienceOf(s, cat.Products)
	lost := map[string]int{}
	titles := map[string]string{}
	for _, f := range rv.Findings {
		if f.State == domain.StateFixed {
			continue
		}
		lost[f.Check] += f.PointsLost
		if titles[f.Check] == "" {
			titles[f.Check] = f.Title
		}
	}
	for _, c := range review.Checks {
		if t, ok := titles[c.ID]; ok {
			b.Findings = append(b.Findings, BriefFinding{Check: c.ID, Title: t, PointsLost: lost[c.ID]})
		}
	}
	slices.SortStableFunc(b.Findings, func(x, y BriefFinding) int { return y.PointsLost - x.PointsLost })
	today := date(now.Year(), now.Month(), now.Day())
	for _, o := range upcoming(now, b.Market) {
		b.Occasions = append(b.Occasions, BriefDate{Name: o.Name, Date: o.Date.Format(time.DateOnly), DaysAway: int(o.Date.Sub(today).Hours() / 24), Gift: o.Gift})
	}
	return b
}

// audienceWords map words on the site to the shoppers it serves.
var audienceWords = []struct {
	words []string
	who   string
}{
	{[]string{"baby", "babies", "toddler", "newborn", "nursery"}, "parents of babies and toddlers"},
	{[]string{"kids", "children", "girls", "boys"}, "parents buying for children"},
	{[]string{"dog", "dogs", "puppy", "cat", "cats", "pet", "pets"}, "pet owners"},
	{[]string{"women", "womens", "woman", "ladies", "bridal"}, "women"},
	{[]string{"men", "mens", "beard"}, "men"},
	{[]string{"fitness", "gym", "yoga", "running", "workout"}, "active people"},
	{[]string{"skincare", "skin", "beauty", "makeup", "serum"}, "beauty shoppers"},
	{[]string{"coffee", "chocolate", "snack", "snacks", "honey", "honeycomb", "jam", "spice", "spices", "wine", "food"}, "food lovers"},
	{[]string{"kitchen", "decor", "candle", "candles", "furniture", "linen", "homeware", "tablecloth", "apron"}, "people who care about their homes"},
	{[]string{"gift", "gifts"}, "gift shoppers"},
}

// audienceOf names who the store sells to from the words on its site.
func audienceOf(s *site.Site, products []page.Product) string {
	var b strings.Builder
	b.WriteString(s.Home.Title + " " + s.Home.MetaDesc + " " + strings.Join(s.Home.H1, " ") + " " + strings.Join(s.Home.H2, " ") + " ")
	for _, p := range products {
		b.WriteString(p.Name + " " + p.Type + " ")
	}
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(b.String()), func(r rune) bool { return !unicode.IsLetter(r) }) {
		seen[w] = true
	}
	var who []string
	for _, a := range audienceWords {
		if slices.ContainsFunc(a.words, func(w string) bool { return seen[w] }) && len(who) < 2 {
			who = append(who, a.who)
		}
	}
	if len(who) == 0 {
		return "online shoppers"
	}
	return words.JoinAnd(who)
}

// priceStats summarises the priced products.
func priceStats(products []page.Product) PriceStats {
	var prices []float64
	for _, p := range products {
		if p.Price > 0 {
			prices = append(prices, p.Price)
		}
	}
	if len(prices) == 0 {
		return PriceStats{}
	}
	slices.Sort(prices)
	q := func(f float64) float64 { return prices[int(f*float64(len(prices)-1)+0.5)] }
	return PriceStats{Count: len(prices), Min: prices[0], Max: prices[len(prices)-1], Median: q(0.5), Low: q(0.25), High: q(0.75)}
}

// Insights are short, specific observations about the store, each with the
// evidence behind it, drawn from the catalogue and the review.
func Insights(s *site.Site, rv domain.Review) []domain.Insight {
	var out []domain.Insight
	add := func(key, text, evidence string) {
		sum := sha256.Sum256([]byte(key))
		out = append(out, domain.Insight{ID: "insight-" + hex.EncodeToString(sum[:5]), Text: text, Evidence: evidence})
	}
	cat := s.Catalogue
	cur := cat.Currency
	list := func(ps []page.Product) string {
		var names []string
		for _, p := range ps[:min(10, len(ps))] {
			names = append(names, p.Name)
		}
		if len(ps) > 10 {
			names = append(names, fmt.Sprintf("and %d more", len(ps)-10))
		}
		return strings.Join(names, "; ")
	}
	if ps := priceStats(cat.Products); ps.Count >= 2 {
		var cheapest, dearest page.Product
		for _, p := range cat.Products {
			if p.Price > 0 && (cheapest.Name == "" || p.Price < cheapest.Price) {
				cheapest = p
			}
			if p.Price > dearest.Price {
				dearest = p
			}
		}
		text := fmt.Sprintf("Your cheapest product is %s, most are %s.", words.Money(ps.Min, cur), words.PriceRange(ps.Low, ps.High, cur))
		if words.Money(ps.Low, cur) == words.Money(ps.High, cur) {
			text = fmt.Sprintf("Your cheapest product is %s, most sell for about %s.", words.Money(ps.Min, cur), words.Money(ps.Median, cur))
		}
		add("prices", text, fmt.Sprintf("%s from %s: cheapest %s (%s), most expensive %s (%s), median %s.",
			words.Plural(ps.Count, "priced product", "priced products"), cat.Source, cheapest.Name, words.Money(cheapest.Price, cur), dearest.Name, words.Money(dearest.Price, cur), words.Money(ps.Median, cur)))
	}
	if n := len(cat.Products); n > 0 {
		var noDesc, soldOut, onSale, onePhoto []page.Product
		for _, p := range cat.Products {
			if !p.HasDescription {
				noDesc = append(noDesc, p)
			}
			if !p.Available {
				soldOut = append(soldOut, p)
			}
			if p.CompareAt > 0 {
				onSale = append(onSale, p)
			}
			if p.Images == 1 || p.Images == 0 {
				onePhoto = append(onePhoto, p)
			}
		}
		if len(noDesc) > 0 {
			add("no-description", words.SomeOf(len(noDesc), n, "has no description.", "have no description."), "No description: "+list(noDesc)+".")
		}
		if len(soldOut) > 0 {
			add("sold-out", words.SomeOf(len(soldOut), n, "is sold out.", "are sold out."), "Sold out: "+list(soldOut)+".")
		}
		if len(onePhoto) > 0 && cat.Source == "products.json" {
			add("photos", words.SomeOf(len(onePhoto), n, "has one photo or none.", "have one photo or none."), "One photo or none: "+list(onePhoto)+".")
		}
		if len(onSale) > 0 {
			add("on-sale", words.SomeOf(len(onSale), n, "is on sale.", "are on sale."), "Marked down: "+list(onSale)+".")
		}
		if types := page.TopTypes(cat.Products, 1); len(types) > 0 {
			c := 0
			for _, p := range cat.Products {
				if p.Type == types[0] {
					c++
				}
			}
			if c*2 >= n && n >= 3 {
				add("types", fmt.Sprintf("Most of your catalogue is %s (%d of %d products).", types[0], c, n), "Product types: "+strings.Join(page.TopTypes(cat.Products, 5), ", ")+".")
			}
		}
	}
	// The review: where most points went, and pages missing descriptions.
	lostBy := map[string]int{}
	for _, f := range rv.Findings {
		lostBy[f.Group] += f.PointsLost
	}
	groups := []string{domain.GroupSearch, domain.GroupSpeed, domain.GroupMobile, domain.GroupTrust, domain.GroupConversion}
	slices.SortStableFunc(groups, func(a, b string) int { return cmp.Compare(lostBy[b], lostBy[a]) })
	if g := groups[0]; lostBy[g] > 0 {
		var titles []string
		for _, f := range rv.Findings {
			if f.Group == g && f.PointsLost > 0 && !slices.Contains(titles, f.Title) {
				titles = append(titles, f.Title)
			}
		}
		add("weakest-"+g, fmt.Sprintf("Your website loses the most points on %s: %d of your %s.", groupName(g), lostBy[g], words.Plural(100-rv.Score, "lost point", "lost points")),
			strings.Join(words.Limit(titles, 4), "; ")+".")
	}
	var noMeta []string
	pages := s.All()
	for _, p := range pages {
		if p.MetaDesc == "" {
			noMeta = append(noMeta, p.URL)
		}
	}
	if len(noMeta) > 0 && len(pages) > 1 {
		add("meta", fmt.Sprintf("%d of the %d pages we read %s no meta description.", len(noMeta), len(pages), map[bool]string{true: "has", false: "have"}[len(noMeta) == 1]), strings.Join(words.Limit(noMeta, 8), ", "))
	}
	return out
}

func groupName(g string) string {
	switch g {
	case domain.GroupSearch:
		return "search"
	case domain.GroupSpeed:
		return "speed"
	case domain.GroupMobile:
		return "mobile"
	case domain.GroupTrust:
		return "trust"
	}
	return "conversion"
}

func IdeaID(site, title string) string {
	sum := sha256.Sum256([]byte(site + "\x00" + title))
	return "idea-" + hex.EncodeToString(sum[:5])
}
