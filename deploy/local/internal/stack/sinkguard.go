package stack

import (
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
)

// sinkGuard serves the SMTP sink's web page and API (MailDev, listening on
// a loopback port of its own at upstream) on port. MailDev answers every
// Origin with Access-Control-Allow-Origin set to it and credentials allowed,
// so without the guard any web page the developer opens could read the
// local mail, password-reset links included; and it serves any Host, so a
// page could also reach it under its own DNS name pointed at 127.0.0.1.
// The guard serves only requests with no Origin (tools, the tests) or the
// sink's own origin, under the loopback names, and drops MailDev's CORS
// headers.
func sinkGuard(upstream *url.URL, port string) http.Handler {
	own := map[string]bool{}
	for _, h := range []string{"127.0.0.1", "localhost", "[::1]"} {
		own[h+":"+port] = true
	}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(upstream) },
		ModifyResponse: func(resp *http.Response) error {
			for k := range resp.Header {
				if strings.HasPrefix(k, "Access-Control-") {
					resp.Header.Del(k)
				}
			}
			return nil
		},
		// MailDev is polled through the guard while it starts: a refused
		// connection then is expected, so it is a 502, not a log line.
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, _ error) {
			http.Error(w, "The mail sink is not running.", http.StatusBadGateway)
		},
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !own[strings.ToLower(r.Host)] {
			http.Error(w, "This mail sink is served only as http://127.0.0.1:"+port+".", http.StatusMisdirectedRequest)
			return
		}
		if o := r.Header.Get("Origin"); o != "" {
			u, err := url.Parse(o)
			if err != nil || u.Scheme != "http" || !own[strings.ToLower(u.Host)] {
				http.Error(w, "Other sites may not read the local mail.", http.StatusForbidden)
				return
			}
		}
		proxy.ServeHTTP(w, r)
	})
}
