package domain

import (
	"strings"
	"testing"
)

func TestNewSearch(t *testing.T) {
	tok := Search{Query: "ann"}.NextToken(User{ID: "u1", Email: "Ann@x.co"})
	tests := []struct {
		name      string
		query     string
		size      int32
		token     string
		wantField string
		wantSize  int
	}{
		{name: "defaults", wantSize: DefaultPageSize},
		{name: "capped", size: 1000, wantSize: MaxPageSize},
		{name: "negative", size: -1, wantField: "pageSize"},
		{name: "huge query", query: strings.Repeat("a", 300), wantField: "query"},
		{name: "garbage token", token: "!!!", wantField: "pageToken"},
		{name: "token of another search", query: "bob", token: tok, wantField: "pageToken"},
		{name: "token of this search, any case", query: " ANN ", token: tok, wantSize: DefaultPageSize},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewSearch(tt.query, tt.size, tt.token)
			if tt.wantField != "" {
				ve, ok := err.(*ValidationError)
				if !ok || ve.Field != tt.wantField {
					t.Fatalf("err = %v, want field %s", err, tt.wantField)
				}
				return
			}
			if err != nil || s.PageSize != tt.wantSize {
				t.Fatalf("search %+v, %v", s, err)
			}
			if tt.token != "" && (s.After == nil || s.After.Email != "ann@x.co" || s.After.ID != "u1") {
				t.Fatalf("cursor %+v", s.After)
			}
		})
	}
}

func TestValidateID(t *testing.T) {
	for _, id := range []string{"", strings.Repeat("x", 129), "a/b", "a b"} {
		if ValidateID("userId", id) == nil {
			t.Errorf("%q accepted", id)
		}
	}
	if err := ValidateID("userId", "abcDEF123"); err != nil {
		t.Error(err)
	}
}
