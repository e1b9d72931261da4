package analysis

import (
	"bytes"
	"net/url"
	"strings"
)

// Store platforms the review writes specific fixes for. A store on none of
// them (or one we cannot prove) gets the generic fix.
const (
	PlatformShopify     = "shopify"
	PlatformWooCommerce = "woocommerce"
	PlatformBigCommerce = "bigcommerce"
	PlatformSquarespace = "squarespace"
	PlatformWix         = "wix"
	PlatformPrestaShop  = "prestashop"
	PlatformMagento     = "magento"
	// Recognised so they are not mistaken for another, with generic fixes.
	PlatformSFCC     = "salesforce-commerce-cloud"
	PlatformOpenCart = "opencart"
)

// platformSignals collects what a page's markup proves about the software
// that made it. Only strong signals count: the generator tag, the
// platform's own asset hosts and paths, globals and classes its themes
// always emit. A mention in a script (a Shopify "Buy button" on a
// Squarespace site, a link to shopify.com) proves nothing.
type platformSignals struct {
	body      []byte
	generator string
	resources []string // absolute URLs of scripts, stylesheets, links and images
	classes   map[string]bool
	inlines   []string
}

func (s *platformSignals) class(cls string) {
	for _, c := range strings.Fields(cls) {
		switch c {
		case "shopify-section", "woocommerce", "woocommerce-page", "sqs-block", "sqs-layout":
			if s.classes == nil {
				s.classes = map[string]bool{}
			}
			s.classes[c] = true
		}
	}
}

func (s *platformSignals) inline(js string) {
	for _, marker := range []string{"Shopify.theme", "Shopify.shop", "ShopifyAnalytics", "SQUARESPACE_CONTEXT", "var prestashop", "Mage.Cookies", "BCData", "wixBiSession"} {
		if strings.Contains(js, marker) {
			s.inlines = append(s.inlines, marker)
		}
	}
}

func (s *platformSignals) hasInline(marker string) bool {
	for _, m := range s.inlines {
		if m == marker {
			return true
		}
	}
	return false
}

// resource reports whether an asset comes from a host ending in one of
// hosts or has a path containing one of paths.
func (s *platformSignals) resource(hosts, paths []string) bool {
	for _, r := range s.resources {
		u, err := url.Parse(r)
		if err != nil || u.Host == "" {
			continue
		}
		h := strings.ToLower(u.Hostname())
		for _, want := range hosts {
			if h == want || strings.HasSuffix(h, "."+want) {
				return true
			}
		}
		for _, want := range paths {
			if strings.Contains(u.Path, want) {
				return true
			}
		}
	}
	return false
}

// platform returns the platform the signals prove, site builders first: a
// Squarespace or Wix site may embed another platform's shop widget.
func (s *platformSignals) platform() string {
	g := s.generator
	switch {
	case strings.Contains(g, "squarespace") || s.resource([]string{"squarespace.com", "sqspcdn.com"}, nil) ||
		s.hasInline("SQUARESPACE_CONTEXT") || s.classes["sqs-layout"] || bytes.Contains(s.body, []byte("<!-- This is Squarespace. -->")):
		return PlatformSquarespace
	case strings.Contains(g, "wix.com") || s.resource([]string{"wixstatic.com", "parastorage.com"}, nil) || s.hasInline("wixBiSession"):
		return PlatformWix
	case strings.Contains(g, "woocommerce") || s.resource(nil, []string{"/wp-content/plugins/woocommerce/"}) || s.classes["woocommerce"] || s.classes["woocommerce-page"]:
		return PlatformWooCommerce
	case s.resource([]string{"cdn.shopify.com", "myshopify.com"}, nil) || s.hasInline("Shopify.theme") || s.hasInline("Shopify.shop") ||
		s.hasInline("ShopifyAnalytics") || s.classes["shopify-section"]:
		return PlatformShopify
	case strings.Contains(g, "bigcommerce") || s.resource([]string{"bigcommerce.com"}, nil) || s.hasInline("BCData"):
		return PlatformBigCommerce
	case strings.Contains(g, "prestashop") || s.hasInline("var prestashop") || s.resource(nil, []string{"/modules/ps_", "/modules/blockcart/"}):
		return PlatformPrestaShop
	case strings.Contains(g, "magento") || s.hasInline("Mage.Cookies") || s.resource(nil, []string{"/skin/frontend/", "/static/version", "/Magento_"}) ||
		bytes.Contains(s.body, []byte("text/x-magento-init")):
		return PlatformMagento
	case s.resource(nil, []string{"/demandware.static/"}):
		return PlatformSFCC
	case s.resource(nil, []string{"/catalog/view/javascript/", "/catalog/view/theme/"}):
		return PlatformOpenCart
	}
	return ""
}

// PlatformName names a platform for people.
func PlatformName(p string) string {
	switch p {
	case PlatformShopify:
		return "Shopify"
	case PlatformWooCommerce:
		return "WooCommerce"
	case PlatformBigCommerce:
		return "BigCommerce"
	case PlatformSquarespace:
		return "Squarespace"
	case PlatformWix:
		return "Wix"
	case PlatformPrestaShop:
		return "PrestaShop"
	case PlatformMagento:
		return "Magento"
	case PlatformSFCC:
		return "Salesforce Commerce Cloud"
	case PlatformOpenCart:
		return "OpenCart"
	}
	return "a custom platform"
}

// Steps on each platform for the fixes that differ between them.
type platformSteps struct {
	page     string // publish a page and link it in the footer
	policy   string // publish a policy (returns, shipping, privacy); "" = page
	Review  string // show product reviews
	products string // product structured data
}

var stepsByPlatform = map[string]platformSteps{
	PlatformShopify: {
		page:     "In Shopify: Online Store → Pages → Add page, then Online Store → Navigation → Footer menu → Add menu item.",
		policy:   "In Shopify: Settings → Policies, write the policy, then Online Store → Navigation → Footer menu → Add menu item.",
		Review:  "A free app such as Shopify Product Reviews or Judge.me adds the stars and the review markup Google needs.",
		products: "Most Shopify themes add it from the product template: update the theme, or add the snippet to sections/main-product.liquid.",
	},
	PlatformWooCommerce: {
		page:     "In WordPress: Pages → Add New, then Appearance → Menus (or Editor → Navigation) to add it to the footer.",
		policy:   "In WordPress: Pages → Add New (Settings → Privacy creates the privacy page), then add it to the footer menu.",
		Review:  "In WooCommerce: Settings → Products → Enable product reviews and \"Show verified owner\" labels.",
		products: "WooCommerce adds it on product pages; a theme or SEO plugin that removes it should be fixed or replaced.",
	},
	PlatformBigCommerce: {
		page:     "In BigCommerce: Storefront → Web Pages → Create a Web Page, with \"Show in navigation menu\" on.",
		Review:  "In BigCommerce: Settings → Display → Product reviews on, and ask buyers via the review email.",
		products: "Stencil themes include it in templates/components/products; update the theme if it is missing.",
	},
	PlatformSquarespace: {
		page:     "In Squarespace: Pages → + → Blank page, then drag it into the Footer navigation.",
		Review:  "Squarespace has no product reviews of its own: add a review service's block to the product page template.",
		products: "Squarespace adds it to product pages itself; check the product has a price and is visible.",
	},
	PlatformWix: {
		page:     "In the Wix editor: Pages & Menu → + Add Page, then add it to the footer menu.",
		policy:   "In the Wix dashboard: Settings → Policies (Store policies), then show them in the footer.",
		Review:  "Install the Wix Stores \"Reviews\" app from the Wix App Market.",
		products: "Wix Stores adds it to product pages itself; check the product has a price and is visible.",
	},
	PlatformPrestaShop: {
		page:     "In PrestaShop: Design → Pages → Add new page, then Design → Link List (footer block) to link it.",
		Review:  "Enable the \"Product Comments\" module (Modules → Module Manager).",
		products: "Recent PrestaShop themes include it; older ones need a structured-data module.",
	},
	PlatformMagento: {
		page:     "In Magento admin: Content → Pages → Add New Page, then add the link to the footer links block.",
		Review:  "In Magento admin: Stores → Configuration → Catalog → Product Reviews → Enabled.",
		products: "Luma-based themes include it in the product view templates; a custom theme may need it added.",
	},
}

// stepsFor returns one platform's steps, or none for a generic fix.
func stepsFor(platform string) (platformSteps, bool) {
	s, ok := stepsByPlatform[platform]
	return s, ok
}
