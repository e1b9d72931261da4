package validation

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Kind is a kind of text field. Each kind has one bound, here, which every
// service's gRPC server applies to every request field of that kind
// (grpcserver) before any service code sees it, the gateway's OpenAPI
// document states (maxLength) and domain rules reuse; a service may still
// refuse a value as malformed, never as too long below its kind's bound.
// Bounds count characters (Unicode code points), as JSON Schema's
// maxLength does; a value takes at most four bytes a character.
type Kind int

// The kinds of text, each with the fields it covers (see KindOf).
const (
	// Text is any other text: a sentence or a paragraph a person types.
	Text Kind = iota
	// ID is an id: a field named "id" or "…_id". Firebase's uids (at most
	// 128) are the longest; UUIDs, Stripe and Shopify ids are shorter.
	ID
	// Email is an email address ("email", "…_email"): RFC 5321's longest path.
	Email
	// Search is the text of a search of people: a name or an email.
	Search
	// Name is a person's or a business's name.
	Name
	// FileName is the name of a file a person uploads: what file systems
	// allow.
	FileName
	// Title is a product's title: Shopify's own bound. Titles only come
	// from Shopify and order exports, which are cut to it (ClipTitle in
	// the stores domain), not refused.
	Title
	// Shop is a shop's domain (name.myshopify.com): a DNS name.
	Shop
	// URL is a web address ("url", "…_url", "urls").
	URL
	// Keyword is a short word from a fixed set or a short code: a format,
	// a tier, a time zone, a date.
	Keyword
	// Token is an opaque token, code, state, signature or a signed query.
	Token
	// Password is a password: long enough for any passphrase.
	Password
	// Document is a whole file sent as text (an order export), bounded by
	// the service that reads it, with its own message.
	Document
)

// The bounds of each kind, in characters.
const (
	MaxTextRunes     = 5000
	MaxIDRunes       = 128
	MaxEmailRunes    = 254
	MaxSearchRunes   = MaxEmailRunes
	MaxNameRunes     = 100
	MaxFileNameRunes = 255
	MaxTitleRunes    = 255
	MaxShopRunes     = 255
	MaxURLRunes      = 2048
	MaxKeywordRunes  = 64
	MaxTokenRunes    = 4096
	MaxPasswordRunes = 1024
	// MaxDocumentBytes is an order export's bound (20 MB).
	MaxDocumentBytes = 20 << 20
)

// Max is k's bound in characters.
func (k Kind) Max() int {
	switch k {
	case ID:
		return MaxIDRunes
	case Email:
		return MaxEmailRunes
	case Search:
		return MaxSearchRunes
	case Name:
		return MaxNameRunes
	case FileName:
		return MaxFileNameRunes
	case Title:
		return MaxTitleRunes
	case Shop:
		return MaxShopRunes
	case URL:
		return MaxURLRunes
	case Keyword:
		return MaxKeywordRunes
	case Token:
		return MaxTokenRunes
	case Password:
		return MaxPasswordRunes
	case Document:
		return MaxDocumentBytes
	}
	return MaxTextRunes
}

// fieldKinds are the fields whose kind their name's ending does not say.
var fieldKinds = map[string]Kind{
	"name":                   Name,
	"filename":               FileName,
	"title":                  Title,
	"shop":                   Shop,
	"shop_domain":            Shop,
	"query":                  Search,
	"password":               Password,
	"csv":                    Document,
	"id_from_google_auth":    ID,
	"raw_query":              Token,
	"hmac":                   Token,
	"signature":              Token,
	"code":                   Token,
	"state":                  Token,
	"format":                 Keyword,
	"kind":                   Keyword,
	"mode":                   Keyword,
	"backdrop":               Keyword,
	"color":                  Keyword,
	"tier":                   Keyword,
	"role":                   Keyword,
	"topic":                  Keyword,
	"api_version":            Keyword,
	"time_zone":              Keyword,
	"from":                   Keyword,
	"to":                     Keyword,
	"date":                   Keyword,
	"triggered_at":           Keyword,
	"metrics_sign_up_source": Keyword,
}

// KindOf is the kind of a request field, from its proto name
// ("customer_email") or its JSON name ("customerEmail").
func KindOf(field string) Kind {
	field = snake(field)
	if k, ok := fieldKinds[field]; ok {
		return k
	}
	last := field[strings.LastIndexByte(field, '_')+1:]
	switch last {
	case "id", "ids":
		return ID
	case "email":
		return Email
	case "url", "urls":
		return URL
	case "token", "state":
		return Token
	}
	return Text
}

// snake turns a JSON name into its proto name ("pageToken" → "page_token").
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// CheckLength refuses s when it is longer than kind's bound, naming field.
func CheckLength(field, s string, kind Kind) *Error {
	// The byte length first: it is never below the count of characters.
	if len(s) <= kind.Max() || utf8.RuneCountInString(s) <= kind.Max() {
		return nil
	}
	return New(field, fmt.Sprintf("%s is too long: at most %d characters.", field, kind.Max()))
}

// Clip cuts s to at most max characters, the last one "…" when it was cut:
// for text that comes from elsewhere (a shop's product titles) and is kept
// rather than refused.
func Clip(s string, max int) string {
	if len(s) <= max || utf8.RuneCountInString(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max-1 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}
