package gateway

import (
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"google.golang.org/grpc/codes"
)

// maxTargetBytes bounds the request target (path and query string). Every
// real address of the API is far shorter; 8 KiB is what common proxies
// allow.
const maxTargetBytes = 8 << 10

// checkTarget refuses, with 400 and a message, paths and query strings that
// no route can mean and that would otherwise fail deep inside the gateway or
// a service as a 500: longer than maxTargetBytes, not UTF-8 once decoded, a
// control character in the path, or a NUL in the query. Services refuse the
// same in JSON bodies (services/platform/grpcserver).
func checkTarget(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if msg := targetProblem(r); msg != "" {
			writeJSONError(w, http.StatusBadRequest, codes.InvalidArgument, msg)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func targetProblem(r *http.Request) string {
	if len(r.URL.EscapedPath())+len(r.URL.RawQuery) > maxTargetBytes {
		return "The address is too long."
	}
	if !utf8.ValidString(r.URL.Path) || strings.ContainsFunc(r.URL.Path, isControl) {
		return "The address contains characters that are not allowed."
	}
	if r.URL.RawQuery == "" {
		return ""
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return "The query string is not valid."
	}
	for k, vs := range q {
		if !cleanText(k) {
			return "The query string contains characters that are not allowed."
		}
		for _, v := range vs {
			if !cleanText(v) {
				return "The query string contains characters that are not allowed."
			}
		}
	}
	return ""
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

func cleanText(s string) bool { return utf8.ValidString(s) && !strings.ContainsRune(s, 0) }
