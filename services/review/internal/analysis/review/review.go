package review

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"

	"uplift.dev/review/domain"
	"uplift.dev/review/internal/analysis/page"
	"uplift.dev/review/internal/analysis/site"
	"uplift.dev/review/internal/analysis/words"
)

// Thresholds the speed checks use.
const (
	htmlGoodBytes   = 200 << 10 // HTML at or under this earns full page-weight points
	htmlOKBytes     = 500 << 10 // HTML at or under this earns half
	heavyImageBytes = 300 << 10 // an image over this is heavy
	maxStylesheets  = 4         // more render-blocking stylesheets than this cost points
)

// draft is a finding before its points are settled. cost is the points it
// would lose on its own; the check's total is capped at its weight.
//
// Drafts of one check with the same key are one issue found in several
// places (pages, images): they become one finding listing every place,
// titled by many and fixed by fixAll when their own fixes differ.
type draft struct {
	key     string // stable identity within the check (not the changing details)
	title   string
	url     string
	element string
	why     string
	fix     string
	cost    int
	// n counts what the draft is about on its page (3 images), 1 when 0.
	n int
	// many titles the issue found in several places, from the number of
	// places and the sum of their n ("%d pages are sent uncompressed").
	many func(places, n int) string
	// fixAll is the fix when the places need fixes of their own: what to
	// do on all of them, each place keeping its own (an email lists the
	// finding without its places, so fixAll must stand alone).
	fixAll string
}

// onPages titles an issue by the pages it is on: format has one %d.
func onPages(format string) func(places, n int) string {
	return func(places, _ int) string { return fmt.Sprintf(format, places) }
}

// reviewer runs every check on one site.
type reviewer struct {
	s      *site.Site
	store  string
	steps  platformSteps
	points map[string]int // check id → points
	// platformKnown is true when the fixes can name the platform's menus.
	platformKnown bool
}

// Review produces the website review of s, comparing with previous.
func Review(s *site.Site, previous *domain.Review) domain.Review {
	r := &reviewer{s: s, store: StoreName(s), points: map[string]int{}}
	r.steps, r.platformKnown = stepsFor(s.Platform)
	for _, c := range Checks {
		r.points[c.ID] = c.Points
	}
	out := domain.Review{SiteURL: s.URL}
	for _, c := range Checks {
		remaining := c.Points
		drafts := c.run(r)
		lost := make([]int, len(drafts))
		for i, d := range drafts {
			lost[i] = min(d.cost, remaining)
			remaining -= lost[i]
		}
		for _, f := range merge(c, drafts, lost) {
			if f.PointsLost == 0 {
				out.Notes = append(out.Notes, f)
			} else {
				out.Findings = append(out.Findings, f)
			}
		}
		res := domain.CheckResult{Check: c.ID, Group: c.Group, Weight: c.Points, Earned: remaining}
		if c.Audit != "" {
			res.Lighthouse = &domain.AuditVerdict{Audit: c.Audit, Pass: c.passes(s.Home, s)}
		}
		out.Checks = append(out.Checks, res)
		out.Score += remaining
	}
	compare(&out, previous)
	return out
}

// merge makes one finding of each issue of check c: the drafts sharing a
// key, in the order they were found, with the points they lost together.
// Its id is the check's and the key's alone, so an issue keeps its id as
// the pages it is found on change.
func merge(c Check, drafts []draft, lost []int) []domain.Finding {
	var out []domain.Finding
	at := map[string]int{}
	var groups [][]int
	for i, d := range drafts {
		g, ok := at[d.key]
		if !ok {
			g = len(groups)
			at[d.key] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	for _, g := range groups {
		first := drafts[g[0]]
		f := domain.Finding{ID: findingID(c.ID, "", first.key), Group: c.Group, Check: c.ID, Title: first.title,
			URL: first.url, Element: first.element, Why: first.why, Fix: first.fix, State: domain.StateNew}
		n, sameFix := 0, true
		for _, i := range g {
			f.PointsLost += lost[i]
			n += max(drafts[i].n, 1)
			sameFix = sameFix && drafts[i].fix == first.fix
		}
		if len(g) > 1 {
			if first.many != nil {
				f.Title = first.many(len(g), n)
			}
			if !sameFix && first.fixAll != "" {
				f.Fix = first.fixAll
			}
			for _, i := range g {
				pl := domain.Place{URL: drafts[i].url, Element: drafts[i].element}
				if drafts[i].fix != f.Fix {
					pl.Fix = drafts[i].fix
				}
				f.Places = append(f.Places, pl)
			}
		}
		// The store's and products' names end many sentences; one that
		// ends in its own stop ("Tea Co.") gets no second one.
		f.Title, f.Why, f.Fix = words.OneStop(f.Title), words.OneStop(f.Why), words.OneStop(f.Fix)
		for i := range f.Places {
			f.Places[i].Fix = words.OneStop(f.Places[i].Fix)
		}
		out = append(out, f)
	}
	return out
}

// compare marks findings new or open against the previous review and adds
// the previous findings that are gone as fixed.
// With no previous review nothing is new: every finding is simply open
// (a first review shows no "New" badges, and its email lists no "new this
// week").
func compare(r *domain.Review, previous *domain.Review) {
	if previous == nil {
		for i := range r.Findings {
			r.Findings[i].State = domain.StateOpen
		}
		for i := range r.Notes {
			r.Notes[i].State = domain.StateOpen
		}
		return
	}
	before := map[string]bool{}
	for _, f := range previous.Findings {
		if f.State != domain.StateFixed {
			before[f.ID] = true
		}
	}
	now := map[string]bool{}
	for _, n := range r.Notes {
		now[n.ID] = true // still true, only no longer costing points
	}
	for i := range r.Findings {
		now[r.Findings[i].ID] = true
		if before[r.Findings[i].ID] {
			r.Findings[i].State = domain.StateOpen
		}
	}
	for _, f := range previous.Findings {
		if f.State != domain.StateFixed && !now[f.ID] {
			f.State, f.PointsLost = domain.StateFixed, 0
			r.Findings = append(r.Findings, f)
		}
	}
}

// findingID is stable for the same check, page and element, so the next
// review can tell what is still open. Neither the page nor the key keeps
// the scheme, host or port of the store: a move to https, to www or to a
// new domain leaves every id as it was.
func findingID(check, pageURL, key string) string {
	u := pageURL
	if p, err := url.Parse(pageURL); err == nil {
		u = p.EscapedPath()
		key = siteRelative(key, p.Hostname())
	}
	sum := sha256.Sum256([]byte(check + "\x00" + u + "\x00" + key))
	return check + "-" + hex.EncodeToString(sum[:5])
}

// siteRelative drops the scheme of an absolute URL, and its host and port
// too when it is the page's own host (ignoring "www."). Other text is kept.
func siteRelative(key, pageHost string) string {
	k, err := url.Parse(key)
	if err != nil || (k.Scheme != "http" && k.Scheme != "https") || k.Host == "" {
		return key
	}
	rest := k.EscapedPath()
	if k.RawQuery != "" {
		rest += "?" + k.RawQuery
	}
	if strings.TrimPrefix(strings.ToLower(k.Hostname()), "www.") == strings.TrimPrefix(strings.ToLower(pageHost), "www.") {
		return rest
	}
	return strings.TrimPrefix(strings.ToLower(k.Hostname()), "www.") + rest
}

// ratioCost spreads lost = ceil(weight*failed/total) over the drafts, so a
// check failing on some pages loses a matching share of its points.
func ratioCost(drafts []draft, failed, total, weight int) []draft {
	if len(drafts) == 0 || total == 0 {
		return drafts
	}
	lost := (weight*failed + total - 1) / total
	for i := range drafts {
		drafts[i].cost = lost / len(drafts)
		if i < lost%len(drafts) {
			drafts[i].cost++
		}
	}
	return drafts
}

// weight is the points of a check; the table is handed to the reviewer
// (not read here) because the table itself refers to the checks.
func (r *reviewer) weight(check string) int { return r.points[check] }

// ---- search ----

// gradedCost grades a check by its worst page: lost = round(weight *
// largest share), given to that page's draft; the others become notes. A
// title two characters too long costs nothing but a note, a title of
// "Home" the check's points, and never as much as a missing title.
func gradedCost(drafts []draft, shares []float64, weight int) []draft {
	worst := -1
	for i, sh := range shares {
		if worst < 0 || sh > shares[worst] {
			worst = i
		}
	}
	if worst >= 0 {
		drafts[worst].cost = int(float64(weight)*shares[worst] + 0.5)
	}
	return drafts
}

// Title and description lengths search engines show in full.
const (
	titleMin, titleMax = 15, 60
	descMin, descMax   = 50, 160
)

// overShare grades how far a length is past the limit: nothing at the
// limit, all of it at half as long again.
func overShare(n, limit int) float64 {
	return min(1, float64(n-limit)/(float64(limit)/2))
}

func (r *reviewer) title() []draft {
	var out []draft
	pages := r.s.All()
	for _, p := range pages {
		if !p.HasTitle {
			out = append(out, draft{key: "missing", title: "Page has no title", url: p.URL, element: "<title>",
				many: onPages("%d pages have no title"), fixAll: "Add a <title> inside <head> of each page, written for that page.",
				why: "The title is the blue link people click in Google and the name of the browser tab; without one, search engines make one up.",
				fix: fmt.Sprintf("Add <title>%s</title> inside <head>.", r.suggestTitle(p))})
		}
	}
	return ratioCost(out, len(out), len(pages), r.weight(CheckTitle))
}

func (r *reviewer) titleLength() []draft {
	var out []draft
	var shares []float64
	pages := r.s.All()
	homeTitle := strings.ToLower(r.s.Home.Title)
	for i, p := range pages {
		t := p.Title
		n := len([]rune(t))
		switch {
		case !p.HasTitle:
		case n < titleMin:
			out = append(out, draft{key: "short", title: "Page title is too short", url: p.URL, element: "<title>" + t + "</title>",
				many: onPages("%d page titles are too short"), fixAll: "Use a descriptive title of 30–60 characters on each page.",
				why: "A very short title wastes the most valuable words on the search results page and says little about what you sell.",
				fix: fmt.Sprintf("Use a descriptive title of 30–60 characters, for example: <title>%s</title>", r.suggestTitle(p))})
			shares = append(shares, 1)
		case n > titleMax:
			out = append(out, draft{key: "long", title: fmt.Sprintf("Page title is %d characters over the %d Google shows", n-titleMax, titleMax), url: p.URL, element: "<title>" + words.Truncate(t, 90) + "</title>",
				many: onPages(fmt.Sprintf("%%d page titles are longer than the %d characters Google shows", titleMax)), fixAll: "Shorten each to under 60 characters.",
				why: "Google cuts titles after about 60 characters, so the end of this one is not seen.",
				fix: fmt.Sprintf("Shorten it to under 60 characters, for example: <title>%s</title>", r.suggestTitle(p))})
			shares = append(shares, overShare(n, titleMax))
		case i > 0 && strings.ToLower(t) == homeTitle:
			out = append(out, draft{key: "duplicate", title: "Page reuses the home page title", url: p.URL, element: "<title>" + t + "</title>",
				many: onPages("%d pages reuse the home page title"), fixAll: "Give each page its own title.",
				why: "When many pages share one title, search engines cannot tell them apart and may show the wrong page.",
				fix: fmt.Sprintf("Give this page its own title, for example: <title>%s</title>", r.suggestTitle(p))})
			shares = append(shares, 1)
		}
	}
	return gradedCost(out, shares, r.weight(CheckTitleLength))
}

func (r *reviewer) metaDesc() []draft {
	var out []draft
	pages := r.s.All()
	for _, p := range pages {
		if !auditMetaDesc(p, r.s) {
			out = append(out, draft{key: "missing", title: "Page has no meta description", url: p.URL, element: `<meta name="description">`,
				many: onPages("%d pages have no meta description"), fixAll: "Add a meta description inside <head> of each page, written for that page.",
				why: "Search engines show the meta description under your link; without one they pick a random snippet, and fewer people click.",
				fix: fmt.Sprintf(`Add inside <head>: <meta name="description" content="%s">`, r.suggestDescription(p))})
		}
	}
	return ratioCost(out, len(out), len(pages), r.weight(CheckMetaDesc))
}

func (r *reviewer) metaDescLength() []draft {
	var out []draft
	var shares []float64
	pages := r.s.All()
	for _, p := range pages {
		d := p.MetaDesc
		n := len([]rune(d))
		switch {
		case d == "":
		case n < descMin:
			out = append(out, draft{key: "short", title: "Meta description is too short", url: p.URL, element: fmt.Sprintf(`<meta name="description" content="%s">`, d),
				many: onPages("%d meta descriptions are too short"), fixAll: "Replace each with 120–155 characters that say what the page offers and why.",
				why: "A one-line description does not give shoppers a reason to click your result over the next one.",
				fix: fmt.Sprintf(`Replace it with 120–155 characters that say what you sell and why: <meta name="description" content="%s">`, r.suggestDescription(p))})
			shares = append(shares, float64(descMin-n)/descMin)
		case n > descMax:
			out = append(out, draft{key: "long", title: "Meta description is too long", url: p.URL, element: fmt.Sprintf(`<meta name="description" content="%s">`, words.Truncate(d, 100)),
				many: onPages("%d meta descriptions are too long"), fixAll: "Shorten each to under 155 characters.",
				why: "Search engines cut descriptions after about 155 characters, so the end of yours is hidden.",
				fix: fmt.Sprintf(`Shorten it to under 155 characters: <meta name="description" content="%s">`, r.suggestDescription(p))})
			shares = append(shares, overShare(n, descMax))
		}
	}
	return gradedCost(out, shares, r.weight(CheckMetaDescLength))
}

func (r *reviewer) headings() []draft {
	var out []draft
	pages := r.s.All()
	for _, p := range pages {
		switch n := len(p.H1); {
		case n == 0:
			out = append(out, draft{key: "none", title: "Page has no main heading (h1)", url: p.URL, element: "<h1>",
				many: onPages("%d pages have no main heading (h1)"), fixAll: "Add one visible heading near the top of each page.",
				why: "The h1 tells shoppers and search engines what the page is about at a glance.",
				fix: fmt.Sprintf("Add one visible heading near the top: <h1>%s</h1>", r.suggestH1(p))})
		case n > 1:
			out = append(out, draft{key: "many", title: fmt.Sprintf("Page has %d main headings (h1)", n), url: p.URL,
				many: onPages("%d pages have more than one main heading (h1)"), fixAll: "Keep one <h1> on each page and change the others to <h2>.",
				element: "<h1>" + strings.Join(words.Limit(p.H1, 4), "</h1>, <h1>") + "</h1>",
				why:     "Several h1s blur what the page is about; search engines and screen readers expect one.",
				fix:     fmt.Sprintf("Keep <h1>%s</h1> and change %s to <h2>.", words.FirstNonEmpty(p.H1[0], r.suggestH1(p)), map[bool]string{true: "the other one", false: fmt.Sprintf("the other %d", n-1)}[n == 2])})
		}
	}
	return ratioCost(out, len(out), len(pages), r.weight(CheckHeadings))
}

// canonical loses points on Lighthouse's criterion (a canonical link that
// is invalid, relative, conflicting or pointing at the home page); a page
// with none at all is only a note, as Lighthouse does not require one.
func (r *reviewer) canonical() []draft {
	var bad, notes []draft
	pages := r.s.All()
	for _, p := range pages {
		switch why := canonicalProblem(p); {
		case why != "":
			bad = append(bad, draft{key: "invalid", title: "Canonical link is wrong", url: p.URL, element: `<link rel="canonical" href="` + strings.Join(p.Canonicals, `">, <link rel="canonical" href="`) + `"> (` + why + ")",
				why:  "The canonical link tells search engines which address to rank; a wrong one makes them ignore it or rank the wrong page.",
				many: onPages("%d pages have a wrong canonical link"), fixAll: "Keep exactly one canonical link on each page, with that page's full address.",
				fix: fmt.Sprintf(`Keep exactly one, with the page's full address: <link rel="canonical" href="%s">`, p.URL)})
		case p.HasCanonical && p.Canonical == "":
			notes = append(notes, draft{key: "empty", title: "Canonical link is empty", url: p.URL, element: `<link rel="canonical" href="">`,
				many: onPages("%d pages have an empty canonical link"), fixAll: "Fill in each page's own full address.",
				why: "An empty canonical link points search engines nowhere, so they guess which address of the page to rank.",
				fix: fmt.Sprintf(`Fill in the address: <link rel="canonical" href="%s">`, p.URL)})
		case !p.HasCanonical:
			notes = append(notes, draft{key: "missing", title: "Page has no canonical link", url: p.URL, element: `<link rel="canonical">`,
				many: onPages("%d pages have no canonical link"), fixAll: "Add a canonical link inside <head> of each page, with that page's full address.",
				why: "Stores reach the same page through many URLs (filters, tracking tags, collections); a canonical link tells search engines which one to rank.",
				fix: fmt.Sprintf(`Add inside <head>: <link rel="canonical" href="%s">`, p.URL)})
		}
	}
	return append(ratioCost(bad, len(bad), len(pages), r.weight(CheckCanonical)), notes...)
}

func (r *reviewer) imageAlt() []draft {
	var out []draft
	total, missing := 0, 0
	seen := map[string]bool{}
	for _, p := range r.s.All() {
		var bad []page.Image
		for _, img := range p.Images {
			if seen[img.Src] {
				continue
			}
			seen[img.Src] = true
			total++
			if !img.HasAlt {
				missing++
				bad = append(bad, img)
			}
		}
		unlisted := 0
		if len(bad) == 0 {
			// Images without a file or too small to list still fail the
			// audit when they have no text alternative.
			if p.ImgNoAltCount == 0 {
				continue
			}
			unlisted = p.ImgNoAltCount
		}
		// Each image gets the alt text the page's facts give it; the
		// page's topic goes to the first one nothing else describes
		// (a hero), never to several; the rest are asked for by name.
		var fixes, unknown []string
		topicUsed := false
		for _, img := range bad[:min(8, len(bad))] {
			alt, ok := r.suggestAlt(p, img, false)
			if !ok && !topicUsed {
				alt, ok = r.suggestAlt(p, img, true)
				topicUsed = ok
			}
			switch {
			case !ok:
				unknown = append(unknown, path.Base(img.Src))
			case alt == "":
				fixes = append(fixes, fmt.Sprintf(`%s → alt="" (it only decorates)`, path.Base(img.Src)))
			default:
				fixes = append(fixes, fmt.Sprintf(`%s → alt="%s"`, path.Base(img.Src), alt))
			}
		}
		if len(unknown) > 0 {
			fixes = append(fixes, fmt.Sprintf("for %s, a few words on what %s", words.JoinAnd(unknown), map[bool]string{true: "it shows", false: "each shows"}[len(unknown) == 1]))
		}
		more := ""
		if len(bad) > 8 {
			more = fmt.Sprintf(" (and %d more)", len(bad)-8)
		}
		n := max(len(bad), unlisted)
		d := draft{key: "missing", title: words.Plural(n, "image has", "images have") + " no alt text", url: p.URL, n: n,
			why: "Alt text describes an image to blind shoppers and to Google Images, which sends product traffic.",
			many: func(places, n int) string {
				return fmt.Sprintf("%s no alt text on %d pages", words.Plural(n, "image has", "images have"), places)
			},
			fixAll: "Add an alt attribute describing each image."}
		if len(bad) > 0 {
			d.element = bad[0].Tag + more
			d.fix = "Add an alt attribute describing each image: " + strings.Join(fixes, "; ") + more + "."
		} else {
			d.element, d.fix = "<img> without alt", `Add alt="" to images that only decorate (tracking pixels, spacers) and a description to the others.`
			d.cost = 1
		}
		if n == 1 {
			d.title = "An image has no alt text"
		}
		out = append(out, d)
	}
	return ratioCost(out, missing, total, r.weight(CheckImageAlt))
}

func (r *reviewer) linkText() []draft {
	var out []draft
	pages := r.s.All()
	for _, p := range pages {
		bad := vagueLinks(p)
		if len(bad) == 0 {
			continue
		}
		var shown []string
		for _, a := range bad[:min(3, len(bad))] {
			shown = append(shown, fmt.Sprintf(`<a href="%s">%s</a>`, a.RawHref, a.Text))
		}
		out = append(out, draft{key: "vague", title: words.Plural(len(bad), "link says nothing about where it goes", "links say nothing about where they go"), url: p.URL, n: len(bad),
			many: func(places, n int) string {
				return fmt.Sprintf("%s nothing about where %s, on %d pages", words.Plural(n, "link says", "links say"), map[bool]string{true: "it goes", false: "they go"}[n == 1], places)
			},
			fixAll:  fmt.Sprintf("Write what each link leads to, for example %q instead of %q.", "Read our shipping policy", "more"),
			element: strings.Join(shown, ", "),
			why:     "Search engines and screen-reader users read link text to know what is behind a link; \"click here\" or \"more\" tells them nothing.",
			fix:     fmt.Sprintf("Write what the link leads to, for example %q instead of %q.", "Read our shipping policy", bad[0].Text)})
	}
	return ratioCost(out, len(out), len(pages), r.weight(CheckLinkText))
}

func (r *reviewer) crawlableAnchors() []draft {
	var out []draft
	pages := r.s.All()
	for _, p := range pages {
		bad := uncrawlable(p)
		if len(bad) == 0 {
			continue
		}
		var shown []string
		for _, a := range bad[:min(3, len(bad))] {
			el := "<a"
			if a.HasHref {
				el += fmt.Sprintf(` href="%s"`, a.RawHref)
			}
			shown = append(shown, el+">"+words.Truncate(a.Text, 40)+"</a>")
		}
		out = append(out, draft{key: "uncrawlable", title: words.Plural(len(bad), "link search engines cannot follow", "links search engines cannot follow"), url: p.URL, n: len(bad),
			many: func(places, n int) string {
				return fmt.Sprintf("%s search engines cannot follow, on %d pages", words.Plural(n, "link", "links"), places)
			},
			element: strings.Join(shown, ", "),
			why:     "Search engines find your pages by following href addresses; a link without one (or with javascript:void(0)) is a dead end for them.",
			fix:     "Give each link a real address, <a href=\"/collections/sale\">…</a>; for something that only opens a menu or runs a script, use a <button> instead of <a>."})
	}
	return ratioCost(out, len(out), len(pages), r.weight(CheckCrawlable))
}

func (r *reviewer) indexable() []draft {
	var out []draft
	pages := r.s.All()
	for _, p := range pages {
		if why := noindexReason(p, r.s.ReadAt); why != "" {
			out = append(out, draft{key: "noindex", title: "Search engines are told not to list this page", url: p.URL, element: why,
				many: onPages("Search engines are told not to list %d pages"),
				why:  "A noindex directive keeps the page out of Google entirely, so shoppers searching for it never find it.",
				fix:  "Remove noindex from the robots meta tag or the X-Robots-Tag header (often a leftover \"hide while building\" setting)."})
		}
	}
	return ratioCost(out, len(out), len(pages), r.weight(CheckIndexable))
}

func (r *reviewer) hreflang() []draft {
	var out []draft
	pages := r.s.All()
	for _, p := range pages {
		if bad := badHreflangs(p); len(bad) > 0 {
			out = append(out, draft{key: "hreflang", title: "Language versions are announced wrongly", url: p.URL, element: strings.Join(words.Limit(bad, 3), "; "),
				many: onPages("Language versions are announced wrongly on %d pages"),
				why:  "hreflang links tell search engines which language version to show each shopper; invalid ones are ignored.",
				fix:  `Use ISO language codes (en, en-GB, fr, x-default) and full addresses in <head>: <link rel="alternate" hreflang="fr" href="https://…/fr/">.`})
		}
	}
	return ratioCost(out, len(out), len(pages), r.weight(CheckHreflang))
}

func (r *reviewer) httpStatus() []draft {
	var out []draft
	for _, p := range r.s.All() {
		if !auditHTTPStatus(p, r.s) {
			out = append(out, draft{key: "status", title: fmt.Sprintf("Page answers HTTP %d", p.Status), url: p.URL, element: fmt.Sprintf("HTTP %d", p.Status),
				many: onPages("%d pages answer with an error status"),
				why:  "Search engines drop pages that answer with an error status, even when they show content.",
				fix:  "Serve the page with status 200, or redirect it (301) to the page that replaced it.", cost: r.weight(CheckHTTPStatus)})
		}
	}
	return out
}

// OrgTypes are JSON-LD types that describe the business itself.
var OrgTypes = []string{"organization", "onlinestore", "store", "localbusiness", "website", "corporation", "brand", "clothingstore", "onlinebusiness"}

func (r *reviewer) structuredData() []draft {
	var out []draft
	hasOrg := false
	for _, obj := range r.s.Home.JSONLD {
		if page.JSONLDIs(obj, OrgTypes...) {
			hasOrg = true
		}
	}
	if !hasOrg {
		snippet, _ := json.Marshal(map[string]any{"@context": "https://schema.org", "@type": "Organization", "name": r.store, "url": r.s.URL})
		out = append(out, draft{key: "organization", title: "No business details for search engines", url: r.s.URL, element: `<script type="application/ld+json">`,
			why:  "Organization markup lets Google show your store's name, logo and links correctly in results.",
			fix:  fmt.Sprintf(`Add to the home page: <script type="application/ld+json">%s</script>`, snippet),
			cost: 2})
	}
	var productPages, missing []*page.Page
	for _, p := range r.s.All() {
		if !page.IsProductPage(p) {
			continue
		}
		productPages = append(productPages, p)
		has := false
		for _, obj := range p.JSONLD {
			if page.JSONLDIs(obj, "product", "productgroup") {
				has = true
			}
		}
		if !has {
			missing = append(missing, p)
		}
	}
	var prod []draft
	for _, p := range missing {
		prod = append(prod, draft{key: "product", title: "Product page has no product markup", url: p.URL, element: `<script type="application/ld+json">`,
			many: onPages("%d product pages have no product markup"), fixAll: "Add Product markup (name, price, availability) to each product page.",
			why: "Product markup (name, price, availability) is what lets Google show your price and stock right in the search results.",
			fix: fmt.Sprintf(`Add to this page: <script type="application/ld+json">%s</script>`, r.productSnippet(p))})
	}
	prod = ratioCost(prod, len(missing), len(productPages), r.weight(CheckStructuredData)-2)
	return append(out, prod...)
}

func (r *reviewer) sitemapRobots() []draft {
	var out []draft
	if r.s.RobotsStatus != 200 {
		out = append(out, draft{key: "robots", title: "No robots.txt file", url: r.s.Origin + "/robots.txt", element: "/robots.txt",
			why:  "robots.txt tells search engines what to crawl and where your sitemap is.",
			fix:  fmt.Sprintf("Publish %s/robots.txt containing:\nUser-agent: *\nAllow: /\nSitemap: %s/sitemap.xml", r.s.Origin, r.s.Origin),
			cost: 1})
	}
	if r.s.SitemapURL == "" {
		fix := fmt.Sprintf("Publish a sitemap at %s/sitemap.xml listing your home, product, collection and policy pages, and name it in robots.txt with \"Sitemap: %s/sitemap.xml\".", r.s.Origin, r.s.Origin)
		out = append(out, draft{key: "sitemap", title: "No sitemap found", url: r.s.Origin + "/sitemap.xml", element: "/sitemap.xml",
			why: "A sitemap helps search engines find every product quickly, including new ones.", fix: fix, cost: 2})
	}
	return out
}

func (r *reviewer) openGraph() []draft {
	h := r.s.Home
	var out []draft
	add := func(prop, content string, cost int) {
		if h.OG[prop] != "" {
			return
		}
		out = append(out, draft{key: prop, title: fmt.Sprintf("Missing %s tag for social sharing", prop), url: h.URL, element: fmt.Sprintf(`<meta property="%s">`, prop),
			why:  "When someone shares your store on Facebook, WhatsApp or Pinterest, Open Graph tags decide the title, text and picture of the preview.",
			fix:  fmt.Sprintf(`Add inside <head>: <meta property="%s" content="%s">`, prop, content),
			cost: cost})
	}
	img := "https://…/your-best-product-photo.jpg (1200×630)"
	if len(h.Images) > 0 {
		img = h.Images[0].Src
	}
	add("og:image", img, 2)
	add("og:title", words.FirstNonEmpty(h.Title, r.suggestTitle(h)), 1)
	add("og:description", r.suggestDescription(h), 1)
	return out
}

// ---- speed ----

func (r *reviewer) pageWeight() []draft {
	h := r.s.Home
	kb := h.Bytes >> 10
	switch {
	case h.Truncated:
		return []draft{{key: "html", title: "Home page HTML is enormous", url: h.URL, element: fmt.Sprintf("HTML document, over %d KB", kb),
			why: "Every visitor downloads this before seeing anything; on a phone connection it takes seconds.",
			fix: "Remove inline scripts, styles and repeated markup (mega menus, hidden sections) so the HTML is under 200 KB.", cost: 4}}
	case h.Bytes > htmlOKBytes:
		return []draft{{key: "html", title: "Home page HTML is very heavy", url: h.URL, element: fmt.Sprintf("HTML document, %d KB", kb),
			why: "Heavy HTML delays the first paint on phones, and slow stores lose shoppers before the page appears.",
			fix: fmt.Sprintf("Cut the HTML from %d KB to under 200 KB: move inline scripts and styles to cached files and trim hidden menus and sections.", kb), cost: 4}}
	case h.Bytes > htmlGoodBytes:
		return []draft{{key: "html", title: "Home page HTML is heavy", url: h.URL, element: fmt.Sprintf("HTML document, %d KB", kb),
			why: "Heavy HTML delays the first paint on phones.",
			fix: fmt.Sprintf("Cut the HTML from %d KB to under 200 KB: move inline scripts and styles to cached files.", kb), cost: 2}}
	}
	return nil
}

func (r *reviewer) imageWeight() []draft {
	var out []draft
	measured := 0
	for _, as := range r.s.Assets {
		if as.Kind != "image" || as.Bytes < 0 {
			continue
		}
		measured++
		if as.Bytes > heavyImageBytes {
			out = append(out, draft{key: "heavy", title: "Heavy image on the home page", url: r.s.Home.URL,
				many:    onPages("%d heavy images on the home page"),
				fixAll:  "Resize each image to the size it is shown at (at most 1600 px wide) and save it as WebP or a 75%-quality JPEG, under 200 KB.",
				element: fmt.Sprintf(`<img src="%s"> (%d KB)`, as.URL, as.Bytes>>10),
				why:     "Large images are the main reason store pages load slowly on phones.",
				fix:     fmt.Sprintf("Resize %s to the size it is shown at (at most 1600 px wide) and save it as WebP or a 75%%-quality JPEG; it should be under 200 KB, not %d KB.", path.Base(as.URL), as.Bytes>>10)})
		}
	}
	return ratioCost(out, len(out), measured, r.weight(CheckImageWeight))
}

func (r *reviewer) renderBlocking() []draft {
	h := r.s.Home
	var out []draft
	// One finding for all of them: the fix is the same, and a list of
	// identical findings (most worth nothing once the points are spent)
	// buries what else there is to fix.
	if n := len(h.BlockingJS); n > 0 {
		js := h.BlockingJS[0]
		d := draft{key: "scripts", title: words.Plural(n, "script blocks", "scripts block") + " the page from showing", url: h.URL,
			element: fmt.Sprintf(`<script src="%s">`, js),
			why:     "A script in <head> without async or defer stops the browser from drawing the page until it has downloaded and run.",
			fix:     fmt.Sprintf(`Change it to <script src="%s" defer></script>, or move it to the end of <body>.`, js),
			cost:    2 * n}
		if n > 1 {
			d.element = fmt.Sprintf(`<script src="%s"> and %d more: %s`, js, n-1, strings.Join(words.Limit(h.BlockingJS[1:], 4), ", "))
			d.fix = fmt.Sprintf(`Add defer to each of the %d scripts in <head> (<script src="…" defer>), or move them to the end of <body>; scripts that must run first (consent, A/B tests) can stay.`, n)
		}
		out = append(out, d)
	}
	if n := len(h.Stylesheets); n > maxStylesheets {
		out = append(out, draft{key: "stylesheets", title: fmt.Sprintf("%d stylesheets load before the page shows", n), url: h.URL,
			element: fmt.Sprintf(`<link rel="stylesheet" href="%s"> and %d more`, h.Stylesheets[0], n-1),
			why:     "Each stylesheet is another download the browser waits for before drawing anything.",
			fix:     fmt.Sprintf("Combine the %d stylesheets into one or two files, and load non-essential ones (fonts, widgets) with media=\"print\" onload=\"this.media='all'\".", n),
			cost:    2})
	}
	return out
}

func (r *reviewer) compression() []draft {
	var out []draft
	eligible := 0
	for _, p := range r.s.All() {
		if p.Bytes < 1024 {
			continue
		}
		eligible++
		if !p.Compressed {
			out = append(out, draft{key: "html", title: "Page is sent uncompressed", url: p.URL, element: fmt.Sprintf("HTML document, %d KB, no Content-Encoding", p.Bytes>>10),
				many: onPages("%d pages are sent uncompressed"),
				why:  "Compression makes HTML about five times smaller to download, at no cost to you.",
				fix:  "Turn on gzip or Brotli compression for text/html, text/css and JavaScript in your web server or CDN (for example \"gzip on;\" in nginx, or the compression setting of your host)."})
		}
	}
	return ratioCost(out, len(out), eligible, r.weight(CheckCompression))
}

func (r *reviewer) caching() []draft {
	var out []draft
	var uncached []site.Asset
	for _, as := range r.s.Assets {
		if !as.CachedLong() {
			uncached = append(uncached, as)
		}
	}
	if n := len(uncached); n > 0 {
		var shown []string
		for _, as := range uncached[:min(4, n)] {
			cc := as.CacheCtl
			if cc == "" {
				cc = "none"
			}
			shown = append(shown, fmt.Sprintf("%s %s (Cache-Control: %s)", as.Kind, as.URL, cc))
		}
		if n > 4 {
			shown = append(shown, fmt.Sprintf("and %d more", n-4))
		}
		d := draft{key: "uncached", title: words.Plural(n, "file is", "files are") + " not cached by browsers", url: r.s.Home.URL,
			element: strings.Join(shown, "; "),
			why:     "Without caching, returning shoppers download the same files on every page.",
			fix:     fmt.Sprintf("Serve %s with \"Cache-Control: public, max-age=31536000, immutable\" (and change the file name when the file changes).", path.Base(uncached[0].URL))}
		if n > 1 {
			d.fix = "Serve your images, stylesheets and scripts with \"Cache-Control: public, max-age=31536000, immutable\" (and change a file's name when it changes); most hosts and CDNs have a setting for it."
		}
		out = ratioCost([]draft{d}, n, len(r.s.Assets), r.weight(CheckCaching))
	}
	for _, h := range r.s.SlowHosts {
		out = append(out, draft{key: "slow:" + h, title: "Files from " + h + " did not answer within a second", url: r.s.Home.URL, element: h,
			why: "The review does not wait for slow file hosts; shoppers' browsers do, and a slow host delays the page for them too.",
			fix: "Check that " + h + " is still needed and answers quickly, or host its files with the rest of the store."})
	}
	return out
}

// ---- mobile ----

func (r *reviewer) viewport() []draft {
	var out []draft
	pages := r.s.All()
	failed := 0
	const fixTag = `<meta name="viewport" content="width=device-width, initial-scale=1">`
	for _, p := range pages {
		vp := strings.ToLower(strings.ReplaceAll(p.Viewport, " ", ""))
		switch {
		case !p.HasViewport:
			failed++
			out = append(out, draft{key: "missing", title: "Page is not set up for phones", url: p.URL, element: `<meta name="viewport">`,
				many: onPages("%d pages are not set up for phones"),
				why:  "Without a viewport tag, phones show a shrunken desktop page that shoppers must pinch to read — and most store visits are on phones.",
				fix:  "Add inside <head>: " + fixTag})
		case !strings.Contains(vp, "width=device-width") && !strings.Contains(vp, "initial-scale="):
			// Browsers lay a page out for the phone with either; Lighthouse's
			// viewport audit accepts both.
			failed++
			out = append(out, draft{key: "width", title: "Viewport does not follow the phone's width", url: p.URL, element: fmt.Sprintf(`<meta name="viewport" content="%s">`, p.Viewport),
				many: onPages("The viewport does not follow the phone's width on %d pages"),
				why:  "A fixed-width viewport makes phones scale the page instead of laying it out for the screen.",
				fix:  "Replace it with " + fixTag})
		}
	}
	out = ratioCost(out, failed, len(pages), r.weight(CheckViewport))
	vp := strings.ToLower(strings.ReplaceAll(r.s.Home.Viewport, " ", ""))
	if strings.Contains(vp, "user-scalable=no") || strings.Contains(vp, "user-scalable=0") || strings.Contains(vp, "maximum-scale=1,") || strings.HasSuffix(vp, "maximum-scale=1") || strings.Contains(vp, "maximum-scale=1.0") {
		out = append(out, draft{key: "zoom", title: "Shoppers cannot zoom on phones", url: r.s.Home.URL, element: fmt.Sprintf(`<meta name="viewport" content="%s">`, r.s.Home.Viewport),
			why: "Blocking zoom stops shoppers from looking closely at product photos and fails accessibility rules.",
			fix: "Replace it with " + fixTag, cost: 2})
	}
	return out
}

// ---- trust ----

func (r *reviewer) https() []draft {
	if !strings.HasPrefix(r.s.URL, "https://") {
		return []draft{{key: "http", title: "Store is not served over HTTPS", url: r.s.URL, element: "http:// address",
			why:  "Browsers mark http:// pages \"Not secure\", and shoppers will not type card details there; Google ranks secure sites higher.",
			fix:  fmt.Sprintf("Install a TLS certificate (free with Let's Encrypt or your host), serve the store at %s and redirect every http:// address to it.", strings.Replace(r.s.URL, "http://", "https://", 1)),
			cost: 8}}
	}
	var out []draft
	for _, p := range r.s.All() {
		if len(p.MixedContent) > 0 {
			out = append(out, draft{key: "mixed", title: "Secure page loads insecure files", url: p.URL,
				many:    onPages("%d secure pages load insecure files"),
				fixAll:  "Change the addresses of the insecure files to https:// (or to relative URLs).",
				element: strings.Join(words.Limit(p.MixedContent, 3), ", "),
				why:     "Files loaded over http:// on an https:// page trigger browser warnings or are blocked, breaking images and scripts.",
				fix:     "Change these addresses to https:// (or to relative URLs): " + strings.Join(words.Limit(p.MixedContent, 5), ", "),
				cost:    3})
		}
	}
	return out
}

var trustCopy = map[string]struct {
	name, why, fix string
	policy         bool // a policy page, which some platforms write for you
}{
	page.KindContact: {"contact", "Shoppers look for a way to reach a real person before they buy from a store they do not know.",
		"Add a Contact page with an email address (and phone or form) and link it in the footer as \"Contact us\".", false},
	page.KindReturns: {"returns", "A clear returns policy is one of the first things shoppers check; without it many will not risk an order.",
		"Publish a Returns & refunds page (how many days, who pays return shipping, how refunds are paid) and link it in the footer.", true},
	page.KindShipping: {"shipping", "Surprise shipping costs are the most common reason carts are abandoned; shoppers want costs and times up front.",
		"Publish a Shipping page (where you ship, costs, delivery times, free-shipping threshold) and link it in the footer.", true},
	page.KindPrivacy: {"privacy", "A privacy policy is required by law when you collect emails or orders, and its absence looks untrustworthy.",
		"Publish a Privacy policy (what you collect, why, who you share it with, how to ask for deletion) and link it in the footer.", true},
}

func (r *reviewer) trustPage(kind string) []draft {
	c := trustCopy[kind]
	var linked string
	for _, l := range r.s.Home.Links {
		if slices.Contains(page.Kinds(l.Href, l.Text), kind) && r.s.SameSite(l.Href) {
			linked = l.Href
			break
		}
	}
	if linked != "" {
		if cand := r.s.Candidate(linked); cand != "" {
			if st, ok := r.s.Broken[cand]; ok && st > 0 {
				return []draft{{key: "broken", title: fmt.Sprintf("The %s page link is broken", c.name), url: r.s.Home.URL,
					element: fmt.Sprintf(`<a href="%s"> (HTTP %d)`, linked, st), why: c.why,
					fix: fmt.Sprintf("The home page links to %s but it answers HTTP %d. Restore the page or point the link at the right address.", linked, st), cost: 3}}
			}
		}
		return nil
	}
	fix := c.fix
	if r.platformKnown {
		step := r.steps.page
		if c.policy && r.steps.policy != "" {
			step = r.steps.policy
		}
		fix += " " + step
	}
	for _, u := range r.s.SitemapURLs {
		if slices.Contains(page.Kinds(u, ""), kind) {
			fix = fmt.Sprintf("You already have %s, but the home page does not link to it: add it to the footer menu.", u)
			break
		}
	}
	return []draft{{key: "missing", title: fmt.Sprintf("No %s page linked from the home page", c.name), url: r.s.Home.URL,
		element: "footer links", why: c.why, fix: fix, cost: 3}}
}

// ---- conversion ----

func (r *reviewer) addToCart() []draft {
	var out []draft
	var productPages []*page.Page
	found := false
	for _, p := range r.s.All() {
		if page.IsProductPage(p) {
			productPages = append(productPages, p)
		}
		if page.HasAddToCart(p) {
			found = true
		}
	}
	if !found {
		u, el := r.s.Home.URL, "product page buy button"
		if len(productPages) > 0 {
			u, el = productPages[0].URL, `<form action="/cart/add"> or <button>Add to cart</button>`
		}
		out = append(out, draft{key: "add-to-cart", title: "No add-to-cart button found", url: u, element: el,
			why:  "Shoppers who cannot add a product to the cart straight from its page leave instead.",
			fix:  "Put a prominent \"Add to cart\" button next to the price on every product page, inside a form that posts to your cart.",
			cost: 4})
	}
	// A call to action on the home page that leads into the catalogue.
	cta := false
	for _, l := range r.s.Home.Links {
		kinds := page.Kinds(l.Href, l.Text)
		if len(kinds) > 0 && (kinds[0] == page.KindProduct || kinds[0] == page.KindCollection) && words.ContainsAny(strings.ToLower(l.Text), ctaWords) {
			cta = true
			break
		}
	}
	if !cta && !page.HasAddToCart(r.s.Home) {
		target := r.s.Origin + "/collections/all"
		for _, l := range r.s.Home.Links {
			if ks := page.Kinds(l.Href, l.Text); len(ks) > 0 && ks[0] == page.KindCollection {
				target = l.Href
				break
			}
		}
		out = append(out, draft{key: "cta", title: "Home page has no clear \"Shop now\" button", url: r.s.Home.URL, element: "hero section",
			why:  "Visitors landing on the home page need one obvious next step into your products.",
			fix:  fmt.Sprintf(`Add a button under the main heading: <a href="%s" class="button">Shop %s</a>`, target, r.ctaLabel()),
			cost: 2})
	}
	return out
}

// ctaWords are words of links that invite shoppers into the catalogue.
var ctaWords = []string{"shop", "buy", "browse", "order", "discover", "explore", "see all", "view all", "acheter", "kaufen", "comprar", "découvrir", "entdecken"}

func (r *reviewer) reviews() []draft {
	for _, p := range r.s.All() {
		if p.ReviewMarker {
			return nil
		}
	}
	u := r.s.Home.URL
	for _, p := range r.s.All() {
		if page.IsProductPage(p) {
			u = p.URL
			break
		}
	}
	fix := "Collect reviews from past buyers (an email a week after delivery) and show the stars and reviews on each product page."
	if r.platformKnown {
		fix += " " + r.steps.Review
	}
	return []draft{{key: "reviews", title: "No customer reviews on product pages", url: u, element: "product reviews section",
		why: "Most shoppers read reviews before buying from a store they do not know; products with reviews convert noticeably better.",
		fix: fix, cost: 4}}
}

func (r *reviewer) emailCapture() []draft {
	for _, p := range r.s.All() {
		for _, f := range p.Forms {
			if f.HasEmail && !f.HasPassword && !f.HasTextarea {
				return nil
			}
		}
	}
	return []draft{{key: "newsletter", title: "No newsletter sign-up", url: r.s.Home.URL, element: "footer newsletter form",
		why:  "Most first-time visitors do not buy; an email sign-up lets you bring them back with new products and offers.",
		fix:  fmt.Sprintf(`Add a sign-up form to the footer with the line "Join the %s list for new arrivals and 10%% off your first order", an email field and a "Subscribe" button.`, r.store),
		cost: 5}}
}
