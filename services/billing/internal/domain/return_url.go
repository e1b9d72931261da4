package domain

import (
	"fmt"
	"net/url"
	"strings"
)

// Origins are the web app's origins ("https://app.example.com"), normalised
// to scheme://host:port. Stripe sends the browser back to the success,
// cancel and portal return URLs a checkout was created with, so only pages
// of the web app are accepted: anything else would turn Uplift's checkout
// into an open redirect that carries the Stripe session.
type Origins []string

// ParseOrigins checks and normalises the configured web origins (the
// WEB_ORIGINS setting): each an http(s) scheme and host, no path.
func ParseOrigins(list []string) (Origins, error) {
	var out Origins
	for _, raw := range list {
		raw = strings.TrimSpace(raw)
		if raw == "" {
			continue
		}
		u, err := url.Parse(raw)
		if err != nil || u.User != nil || u.RawQuery != "" || u.Fragment != "" || (u.Path != "" && u.Path != "/") {
			return nil, fmt.Errorf("%q is not an origin such as https://app.example.com", raw)
		}
		o, ok := origin(u)
		if !ok {
			return nil, fmt.Errorf("%q is not an origin such as https://app.example.com", raw)
		}
		out = append(out, o)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("at least one web origin is required")
	}
	return out, nil
}

// CheckReturnURL accepts raw when it is an absolute http(s) URL on one of
// the origins, with no user name or password in it; otherwise a
// ValidationError for field.
func (o Origins) CheckReturnURL(field, raw string) error {
	u, err := url.Parse(raw)
	if err == nil && u.User == nil {
		if got, ok := origin(u); ok {
			for _, want := range o {
				if got == want {
					return nil
				}
			}
		}
	}
	return &ValidationError{Field: field, Message: field + " must be a page of the Uplift web app."}
}

// origin is u's scheme://host:port with the default port made explicit, so
// https://app.example.com and https://app.example.com:443 are the same.
func origin(u *url.URL) (string, bool) {
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	if (scheme != "http" && scheme != "https") || host == "" {
		return "", false
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[scheme]
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return scheme + "://" + host + ":" + port, true
}
