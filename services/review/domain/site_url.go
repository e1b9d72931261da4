package domain

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// NormalizeSiteURL trims, adds https:// when no scheme, rejects non-http(s), and
// returns the canonical form, so one store is stored under one address.
func NormalizeSiteURL(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", errors.New("empty website address")
	}
	if !utf8.ValidString(s) || strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return "", errors.New("invalid website address: it has characters no address has")
	}
	if !strings.Contains(s, "://") {
		if i := strings.IndexByte(s, ':'); i > 0 && !strings.ContainsAny(s[:i], "./") && !isPort(s[i+1:]) {
			return "", fmt.Errorf("scheme %q is not http or https", s[:i])
		}
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("invalid website address: %w", err)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("scheme %q is not http or https", u.Scheme)
	}
	if u.User != nil {
		return "", errors.New("website address must not contain a user name or password")
	}
	// Every trailing dot goes ("shop.com.." is shop.com), so the result
	// normalises to itself.
	host := strings.TrimRight(strings.ToLower(u.Hostname()), ".")
	if host == "" || strings.ContainsAny(host, " _\\") {
		return "", fmt.Errorf("invalid host %q", u.Hostname())
	}
	port := u.Port()
	if (u.Scheme == "https" && port == "443") || (u.Scheme == "http" && port == "80") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	u.Host = host
	if port != "" {
		u.Host += ":" + port
	}
	if u.Path == "" {
		u.Path = "/"
	}
	u.Fragment, u.RawFragment = "", ""
	// url.URL.String writes the query as it came; a space in it would be
	// trimmed the next time, and the stored address would change.
	u.RawQuery = strings.ReplaceAll(u.RawQuery, " ", "%20")
	return u.String(), nil
}

// isPort reports whether s starts with a port number ("example.com:8080/x"
// has no scheme; "ftp:x" does).
func isPort(s string) bool {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n > 0 && (n == len(s) || s[n] == '/')
}
