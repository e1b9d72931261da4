package review

import "uplift.dev/review/internal/analysis/page"

// Steps on each platform for the fixes that differ between them.
type platformSteps struct {
	page     string // publish a page and link it in the footer
	policy   string // publish a policy (returns, shipping, privacy); "" = page
	Review   string // show product reviews
	products string // product structured data
}

var stepsByPlatform = map[string]platformSteps{
	page.PlatformShopify: {
		page:     "In Shopify: Online Store → Pages → Add page, then Online Store → Navigation → Footer menu → Add menu item.",
		policy:   "In Shopify: Settings → Policies, write the policy, then Online Store → Navigation → Footer menu → Add menu item.",
		Review:   "A free app such as Shopify Product Reviews or Judge.me adds the stars and the review markup Google needs.",
		products: "Most Shopify themes add it from the product template: update the theme, or add the snippet to sections/main-product.liquid.",
	},
	page.PlatformWooCommerce: {
		page:     "In WordPress: Pages → Add New, then Appearance → Menus (or Editor → Navigation) to add it to the footer.",
		policy:   "In WordPress: Pages → Add New (Settings → Privacy creates the privacy page), then add it to the footer menu.",
		Review:   "In WooCommerce: Settings → Products → Enable product reviews and \"Show verified owner\" labels.",
		products: "WooCommerce adds it on product pages; a theme or SEO plugin that removes it should be fixed or replaced.",
	},
	page.PlatformBigCommerce: {
		page:     "In BigCommerce: Storefront → Web Pages → Create a Web Page, with \"Show in navigation menu\" on.",
		Review:   "In BigCommerce: Settings → Display → Product reviews on, and ask buyers via the review email.",
		products: "Stencil themes include it in templates/components/products; update the theme if it is missing.",
	},
	page.PlatformSquarespace: {
		page:     "In Squarespace: Pages → + → Blank page, then drag it into the Footer navigation.",
		Review:   "Squarespace has no product reviews of its own: add a review service's block to the product page template.",
		products: "Squarespace adds it to product pages itself; check the product has a price and is visible.",
	},
	page.PlatformWix: {
		page:     "In the Wix editor: Pages & Menu → + Add Page, then add it to the footer menu.",
		policy:   "In the Wix dashboard: Settings → Policies (Store policies), then show them in the footer.",
		Review:   "Install the Wix Stores \"Reviews\" app from the Wix App Market.",
		products: "Wix Stores adds it to product pages itself; check the product has a price and is visible.",
	},
	page.PlatformPrestaShop: {
		page:     "In PrestaShop: Design → Pages → Add new page, then Design → Link List (footer block) to link it.",
		Review:   "Enable the \"Product Comments\" module (Modules → Module Manager).",
		products: "Recent PrestaShop themes include it; older ones need a structured-data module.",
	},
	page.PlatformMagento: {
		page:     "In Magento admin: Content → Pages → Add New Page, then add the link to the footer links block.",
		Review:   "In Magento admin: Stores → Configuration → Catalog → Product Reviews → Enabled.",
		products: "Luma-based themes include it in the product view templates; a custom theme may need it added.",
	},
}

// stepsFor returns one platform's steps, or none for a generic fix.
func stepsFor(platform string) (platformSteps, bool) {
	s, ok := stepsByPlatform[platform]
	return s, ok
}
