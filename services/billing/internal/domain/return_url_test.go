package domain

import (
	"errors"
	"testing"
)

func TestReturnURLsStayOnTheWebOrigins(t *testing.T) {
	o, err := ParseOrigins([]string{"https://App.Example.com", " http://localhost:3000 ", ""})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		url string
		ok  bool
	}{
		{"https://app.example.com/analytics?checkout=success", true},
		{"https://app.example.com:443/", true},
		{"HTTPS://APP.EXAMPLE.COM/x", true},
		{"http://localhost:3000/account#billing", true},
		{"http://app.example.com/", false},
		{"https://app.example.com:8443/", false},
		{"https://app.example.com.evil.example/", false},
		{"https://app.example.com@evil.example/", false},
		{"https://user@app.example.com/", false},
		{"https://evil.example/?next=https://app.example.com", false},
		{"//app.example.com/", false},
		{"/analytics", false},
		{"javascript:alert(1)", false},
		{"http://localhost:3001/", false},
		{"", false},
	} {
		err := o.CheckReturnURL("successUrl", tt.url)
		var ve *ValidationError
		if (err == nil) != tt.ok || (err != nil && (!errors.As(err, &ve) || ve.Field != "successUrl")) {
			t.Errorf("%q: %v, want ok=%v", tt.url, err, tt.ok)
		}
	}
	for _, bad := range [][]string{nil, {""}, {"app.example.com"}, {"https://app.example.com/path"}, {"ftp://app.example.com"}, {"https://u:p@app.example.com"}} {
		if _, err := ParseOrigins(bad); err == nil {
			t.Errorf("ParseOrigins(%q) accepted", bad)
		}
	}
}
