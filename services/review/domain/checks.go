package domain

// checkNames are the review's checks as people read them, by check id,
// written as the words are (HTTPS, Open Graph, robots.txt), not made from
// the ids. The check table itself is the engine's; its test holds every
// check here.
var checkNames = map[string]string{
	"title":                   "Page title",
	"title-length":            "Title length",
	"meta-description":        "Meta description",
	"meta-description-length": "Meta description length",
	"headings":                "Headings",
	"canonical":               "Canonical link",
	"image-alt":               "Image alt text",
	"structured-data":         "Structured data",
	"sitemap-robots":          "Sitemap and robots.txt",
	"open-graph":              "Open Graph tags",
	"link-text":               "Link text",
	"crawlable-anchors":       "Crawlable links",
	"is-crawlable":            "Open to search engines",
	"hreflang":                "Language versions (hreflang)",
	"http-status-code":        "HTTP status code",
	"page-weight":             "Page weight",
	"image-weight":            "Image weight",
	"render-blocking":         "Render-blocking files",
	"compression":             "Compression",
	"caching":                 "Caching",
	"viewport":                "Mobile viewport",
	"https":                   "HTTPS",
	"contact-page":            "Contact page",
	"returns-page":            "Returns page",
	"shipping-page":           "Shipping page",
	"privacy-page":            "Privacy page",
	"add-to-cart":             "Add to cart",
	"reviews":                 "Customer reviews",
	"email-capture":           "Email sign-up",
}

// CheckName is a check's name for people; an id the table does not know
// (from an older review) is given back as it is.
func CheckName(id string) string {
	if name, ok := checkNames[id]; ok {
		return name
	}
	return id
}
