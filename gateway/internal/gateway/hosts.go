package gateway

import (
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"

	"google.golang.org/grpc/codes"
)

// hostList is the Host header values the gateway serves. A web page on
// another site can point its own DNS name at 127.0.0.1 (DNS rebinding) and
// then read the local gateway as same-origin; its requests still carry its
// name in Host, so refusing unknown names closes that door.
type hostList struct {
	exact   map[string]bool // "name:port"
	anyPort map[string]bool // "name", from an entry without a port
}

// LocalHosts are the names Run serves when AllowedHosts is empty: loopback
// by name and address, on the gateway's own port.
func LocalHosts(port string) []string {
	return []string{"localhost:" + port, "127.0.0.1:" + port, "[::1]:" + port}
}

// ParseAllowedHosts checks GATEWAY_ALLOWED_HOSTS entries: a host name or IP
// address, with a port to allow only that port ("localhost:8080",
// "[::1]:8080") or without one to allow any ("api.example.com").
func ParseAllowedHosts(list []string) ([]string, error) {
	var out []string
	for _, s := range list {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if _, _, err := splitHost(s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func newHostList(entries []string) (hostList, error) {
	l := hostList{exact: map[string]bool{}, anyPort: map[string]bool{}}
	for _, e := range entries {
		name, port, err := splitHost(e)
		if err != nil {
			return hostList{}, err
		}
		if port == "" {
			l.anyPort[name] = true
		} else {
			l.exact[net.JoinHostPort(name, port)] = true
		}
	}
	return l, nil
}

// splitHost reads "name", "name:port", "[v6]" or "[v6]:port", lower-cased.
func splitHost(s string) (name, port string, err error) {
	s = strings.ToLower(strings.TrimSpace(s))
	name = s
	if h, p, splitErr := net.SplitHostPort(s); splitErr == nil {
		name, port = h, p
		if n, convErr := strconv.Atoi(p); convErr != nil || n < 1 || n > 65535 {
			return "", "", fmt.Errorf("%q: the port is not a number from 1 to 65535", s)
		}
	} else if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		name = s[1 : len(s)-1]
	}
	if name == "" || (strings.ContainsAny(name, "/:*@?#% ") && net.ParseIP(name) == nil) {
		return "", "", fmt.Errorf("%q is not a host name or IP address, optionally with a port (api.example.com, localhost:8080)", s)
	}
	return name, port, nil
}

func (l hostList) allows(host string) bool {
	name, port, err := splitHost(host)
	if err != nil {
		return false
	}
	if l.anyPort[name] {
		return true
	}
	return port != "" && l.exact[net.JoinHostPort(name, port)]
}

// healthPaths answer whatever the Host: probes and load balancers address
// the gateway by its IP, and they reveal nothing a rebinding page could use.
var healthPaths = map[string]bool{"/healthz": true, "/healthz/backends": true}

// checkHost answers 421 to a request for a name the gateway does not serve.
// An empty list serves every name (New without Run, in tests).
func checkHost(l hostList, next http.Handler) http.Handler {
	if len(l.exact) == 0 && len(l.anyPort) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !l.allows(r.Host) && !healthPaths[r.URL.Path] {
			writeJSONError(w, http.StatusMisdirectedRequest, codes.InvalidArgument,
				"This API is not served under this host name.")
			return
		}
		next.ServeHTTP(w, r)
	})
}
