package domain

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"uplift.dev/platform/validation"
)

// Page sizes of the user searches.
const (
	DefaultPageSize = 20
	MaxPageSize     = 100
	maxQueryLength  = validation.MaxSearchRunes
	maxTokenLength  = validation.MaxTokenRunes
)

// Search is a validated user search: a case-insensitive prefix of the email
// or the name, one page after an optional cursor.
type Search struct {
	// Query is lower-cased; empty matches everyone.
	Query    string
	PageSize int
	// After is the keyset cursor: the sort key of the last user already seen.
	After *Cursor
	// WithProfileOnly keeps users linked to a category, the ones an uplifter
	// can act for.
	WithProfileOnly bool
}

// Cursor is a position in the (lower(email), id) order. Email is unique, so
// the order is total and a page never skips or repeats a user even while
// users are added.
type Cursor struct {
	Email string `json:"e"`
	ID    string `json:"i"`
	// Query binds the cursor to the search it came from.
	Query string `json:"q"`
}

// NewSearch validates the search parameters as the client sent them.
func NewSearch(query string, pageSize int32, pageToken string) (Search, error) {
	query = strings.ToLower(strings.TrimSpace(query))
	if utf8.RuneCountInString(query) > maxQueryLength {
		return Search{}, &ValidationError{Field: "query", Message: "Search text is too long."}
	}
	s := Search{Query: query, PageSize: int(pageSize)}
	switch {
	case pageSize < 0:
		return Search{}, &ValidationError{Field: "pageSize", Message: "pageSize must not be negative."}
	case pageSize == 0:
		s.PageSize = DefaultPageSize
	case pageSize > MaxPageSize:
		s.PageSize = MaxPageSize
	}
	if pageToken != "" {
		c, err := parseToken(pageToken)
		if err != nil || c.Query != query {
			return Search{}, &ValidationError{Field: "pageToken", Message: "pageToken is not valid for this search."}
		}
		s.After = &c
	}
	return s, nil
}

// NextToken is the opaque token for the page after last.
func (s Search) NextToken(last User) string {
	b, _ := json.Marshal(Cursor{Email: strings.ToLower(last.Email), ID: last.ID, Query: s.Query})
	return base64.RawURLEncoding.EncodeToString(b)
}

func parseToken(tok string) (Cursor, error) {
	var c Cursor
	if len(tok) > maxTokenLength {
		return c, &ValidationError{Field: "pageToken", Message: "too long"}
	}
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil {
		return c, err
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, err
	}
	if c.Email == "" || c.ID == "" {
		return c, &ValidationError{Field: "pageToken", Message: "incomplete"}
	}
	return c, nil
}
