package page

import (
	"net/url"
	"strings"

	"uplift.dev/review/internal/analysis/words"
)

// Page kinds the crawler looks for.
const (
	KindProduct    = "product"
	KindCollection = "collection"
	KindContact    = "contact"
	KindReturns    = "returns"
	KindShipping   = "shipping"
	KindPrivacy    = "privacy"
)

var kindWords = map[string][]string{
	KindContact:  {"contact", "kontakt", "contatti", "contacto", "contato", "kontakte"},
	KindReturns:  {"return", "refund", "retour", "devolu", "widerruf", "rückgabe", "rueckgabe", "reso", "remboursement", "umtausch"},
	KindShipping: {"shipping", "delivery", "livraison", "versand", "envio", "envío", "entrega", "spedizion", "dostava", "lieferung", "expédition"},
	KindPrivacy:  {"privacy", "datenschutz", "confidentialit", "privacidad", "privacidade", "gdpr", "rgpd", "données personnelles", "privacybeleid"},
}

// TrustKinds lists the trust pages in the order the review checks them.
var TrustKinds = []string{KindContact, KindReturns, KindShipping, KindPrivacy}

// Kinds classifies a URL (and its link text) into the kinds above.
func Kinds(raw, text string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	p := strings.ToLower(u.Path)
	switch {
	case strings.Contains(p, "/products/") || strings.Contains(p, "/product/") || strings.HasSuffix(p, ".product.html"):
		return []string{KindProduct}
	case strings.Contains(p, "/collections/") || strings.Contains(p, "/collection/") || strings.Contains(p, "/category/") || strings.Contains(p, "/categories/"):
		return []string{KindCollection}
	}
	// Link text counts only when it is a short label ("Shipping",
	// "Returns & refunds"): "Grocery & Household Delivery" names a service.
	hay := p
	if len(strings.Fields(text)) <= 3 {
		hay += " " + strings.ToLower(text)
	}
	var out []string
	for _, k := range TrustKinds {
		if words.ContainsAny(hay, kindWords[k]) {
			out = append(out, k)
		}
	}
	return out
}
