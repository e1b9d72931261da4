package domain

import (
	"net"
	"net/url"
	"strings"
)

// WooStoreMessage is what a person sees for an address that cannot be a
// WooCommerce store: the one 400 of StartWooCommerceConnect.
const WooStoreMessage = "Enter your store's address, like https://your-store.com."

// wooHTTPSMessage is the 400 for a plain-http address outside local mode:
// WooCommerce's REST API takes keys over plain HTTP only with OAuth 1.0a
// signatures, and keys must not cross the network in clear
// (../shared/research/woocommerce.md §2 "Auth", §6 "Transport").
const wooHTTPSMessage = "Your store's address must start with https://. WooCommerce sends its API keys only to a secure store."

// NormalizeWooStore reads the store address a merchant typed into the
// store's home URL: https (or http when allowHTTP, for the local stack's
// simulator), a host, an optional path (WordPress may live in a
// subdirectory), no query, fragment or credentials, and no trailing slash.
// A bare "shop.example" gets https://, as WooCommerce does to a callback
// without a scheme (§1). The error is a sentence for people.
func NormalizeWooStore(raw string, allowHTTP bool) (string, error) {
	s := strings.TrimSpace(raw)
	if s == "" || len(s) > 2048 {
		return "", errorString(WooStoreMessage)
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return "", errorString(WooStoreMessage)
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		if !allowHTTP {
			return "", errorString(wooHTTPSMessage)
		}
	default:
		return "", errorString(WooStoreMessage)
	}
	host := strings.ToLower(u.Hostname())
	if host == "" || strings.ContainsAny(host, " _") || (!strings.Contains(host, ".") && host != "localhost" && net.ParseIP(host) == nil) {
		return "", errorString(WooStoreMessage)
	}
	if p := u.Port(); p != "" {
		host = net.JoinHostPort(host, p)
	} else if ip := net.ParseIP(host); ip != nil && ip.To4() == nil {
		host = "[" + host + "]"
	}
	path := strings.TrimRight(u.EscapedPath(), "/")
	for _, seg := range strings.Split(path, "/") {
		if seg == "." || seg == ".." {
			return "", errorString(WooStoreMessage)
		}
	}
	// The REST API lives under the home URL; an address typed with it is
	// the same store.
	for _, suffix := range []string{"/wp-json", "/wp-admin"} {
		if i := strings.Index(strings.ToLower(path), suffix); i >= 0 {
			path = path[:i]
		}
	}
	return strings.ToLower(u.Scheme) + "://" + host + path, nil
}

// errorString is an error that is its message, for sentences people read.
type errorString string

func (e errorString) Error() string { return string(e) }
