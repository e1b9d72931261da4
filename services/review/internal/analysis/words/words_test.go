package words

import (
	"testing"
)

func TestPluralsAndRanges(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{Plural(1, "product", "products"), "1 product"},
		{Plural(2, "product", "products"), "2 products"},
		{SomeOf(1, 6, "is sold out.", "are sold out."), "1 of your 6 products is sold out."},
		{SomeOf(2, 6, "is sold out.", "are sold out."), "2 of your 6 products are sold out."},
		{SomeOf(1, 1, "is sold out.", "are sold out."), "Your only product is sold out."},
		{PriceRange(19.99, 19.99, "USD"), "$19.99"},
		{PriceRange(12, 45, "GBP"), "£12–£45"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestOneStop(t *testing.T) {
	for in, want := range map[string]string{
		"A low-risk first order that introduces new shoppers to Fernhill Tea Co..": "A low-risk first order that introduces new shoppers to Fernhill Tea Co.",
		"Green tea at Fernhill Tea Co.. Loose leaf from Uji.":                      "Green tea at Fernhill Tea Co. Loose leaf from Uji.",
		`<meta name="description" content="Shop at Fernhill Tea Co..">`:            `<meta name="description" content="Shop at Fernhill Tea Co.">`,
		"Thank you for ordering from Acme Inc..\n\n[Write a review]":               "Thank you for ordering from Acme Inc.\n\n[Write a review]",
		"Wait for it...":             "Wait for it...",
		"Then… and more.":            "Then… and more.",
		`Link to "../returns" here.`: `Link to "../returns" here.`,
		"Version 1..2 of the API":    "Version 1..2 of the API",
		"No change here.":            "No change here.",
		"..":                         "..",
		"":                           "",
	} {
		if got := OneStop(in); got != want {
			t.Errorf("OneStop(%q) = %q, want %q", in, got, want)
		}
	}
}
