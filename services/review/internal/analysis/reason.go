package analysis

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"

	"uplift.dev/review/domain"
	"uplift.dev/review/internal/analysis/fetch"
	"uplift.dev/review/internal/analysis/site"
)

// Reason says in words for a store owner why a site could not be read
// ("it did not answer in time"), for the email that tells them this
// week's review could not be done. It names no internals (addresses,
// error strings), only what the owner can check.
func Reason(err error) string {
	var status site.StatusError
	var robotsDown fetch.RobotsServerError
	var notHTML site.NotHTMLError
	var dns *net.DNSError
	var certInvalid x509.CertificateInvalidError
	var unknownAuthority x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var tlsRecord tls.RecordHeaderError
	var netErr net.Error
	switch {
	case errors.As(err, &status):
		return statusReason(status.Status)
	case errors.As(err, &robotsDown):
		return statusReason(robotsDown.Status)
	case errors.As(err, &notHTML):
		return "its home page is not a web page"
	case errors.Is(err, fetch.ErrRobots):
		return "its robots.txt does not allow Uplift to read it"
	case errors.Is(err, fetch.ErrBlockedAddress):
		return "its address does not lead to a public website"
	case errors.As(err, &dns):
		return "its address could not be found: the domain does not point to a website"
	case errors.As(err, &certInvalid), errors.As(err, &unknownAuthority), errors.As(err, &hostname), errors.As(err, &tlsRecord):
		return "its security certificate (HTTPS) is not valid"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "its server refused the connection"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return "it did not answer in time"
	}
	return "it could not be read"
}

// Problem is which kind of failure err was, so the business profile can
// say whether the domain does not exist, the address is not public, or the
// site is there but could not be read (Reason then says how).
func Problem(err error) domain.SiteProblem {
	var dns *net.DNSError
	switch {
	case errors.Is(err, fetch.ErrBlockedAddress):
		return domain.SitePrivate
	case errors.As(err, &dns) && (dns.IsNotFound || !dns.IsTimeout && !dns.IsTemporary):
		return domain.SiteNotFound
	}
	return domain.SiteUnreadable
}

// statusReason is an HTTP error status in words.
func statusReason(code int) string {
	switch {
	case code == http.StatusServiceUnavailable:
		return "it answered that the site is unavailable (HTTP 503)"
	case code == http.StatusNotFound:
		return "its home page was not found (HTTP 404)"
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return fmt.Sprintf("it refused to be read (HTTP %d): it may be password-protected", code)
	case code >= 500:
		return fmt.Sprintf("its server answered with an error (HTTP %d)", code)
	}
	return fmt.Sprintf("its home page answered with an error (HTTP %d)", code)
}
