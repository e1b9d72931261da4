package domain

import "testing"

func TestMinorUnits(t *testing.T) {
	t.Parallel()
	for cur, want := range map[string]int{"USD": 2, "inr": 2, "JPY": 0, "KRW": 0, "VND": 0, "CLP": 0, "ISK": 0,
		"UGX": 0, "XAF": 0, "XOF": 0, "BHD": 3, "KWD": 3, "OMR": 3, "JOD": 3, "TND": 3, "IQD": 3, "LYD": 3, "ZZZ": 2, "": 2} {
		if got := MinorUnits(cur); got != want {
			t.Errorf("MinorUnits(%q) = %d, want %d", cur, got, want)
		}
	}
}

func TestFormatMoney(t *testing.T) {
	t.Parallel()
	cases := []struct {
		m    Money
		cur  string
		want string
	}{
		{1694000, "USD", "16940.00"}, {-550, "USD", "-5.50"}, {1200, "JPY", "1200"}, {5, "USD", "0.05"},
		{-5, "EUR", "-0.05"}, {0, "USD", "0.00"}, {1234, "KWD", "1.234"}, {7, "BHD", "0.007"}, {0, "JPY", "0"},
		{-9223372036854775808, "USD", "-92233720368547758.08"},
	}
	for _, c := range cases {
		if got := FormatMoney(c.m, c.cur); got != c.want {
			t.Errorf("FormatMoney(%d, %s) = %q, want %q", c.m, c.cur, got, c.want)
		}
	}
}

func TestParseMoney(t *testing.T) {
	t.Parallel()
	ok := []struct {
		s    string
		cur  string
		want Money
	}{
		{"19.99", "USD", 1999}, {"19.9", "USD", 1990}, {"19", "USD", 1900}, {"-3.00", "USD", -300},
		{"1200", "JPY", 1200}, {"1200.00", "JPY", 1200}, {"1.234", "KWD", 1234}, {"0.10", "USD", 10},
		{"19.990", "USD", 1999}, {"0", "USD", 0},
	}
	for _, c := range ok {
		got, err := ParseMoney(c.s, c.cur)
		if err != nil || got != c.want {
			t.Errorf("ParseMoney(%q, %s) = %d, %v, want %d", c.s, c.cur, got, err, c.want)
		}
		if err == nil && c.s[0] != '0' {
			back, _ := ParseMoney(FormatMoney(got, c.cur), c.cur)
			if back != got {
				t.Errorf("round trip of %q lost value", c.s)
			}
		}
	}
	for _, c := range []struct{ s, cur string }{
		{"", "USD"}, {"-", "USD"}, {"1,299.00", "USD"}, {"19.999", "USD"}, {"1200.5", "JPY"}, {"$5", "USD"},
		{"1e3", "USD"}, {".5", "USD"}, {"5.", "USD"}, {"+5", "USD"}, {"5.5.5", "USD"}, {" 5", "USD"},
		{"99999999999999999999", "USD"}, {"--5", "USD"},
	} {
		if got, err := ParseMoney(c.s, c.cur); err == nil {
			t.Errorf("ParseMoney(%q, %s) = %d, want an error", c.s, c.cur, got)
		}
	}
}
