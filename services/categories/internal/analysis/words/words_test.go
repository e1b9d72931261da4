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
