package page

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
