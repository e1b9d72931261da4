package sim

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"
	_ "time/tzdata" // properties name IANA zones; the sim must not depend on the host's zoneinfo

	"uplift.dev/simkit"
)

// Sentinel errors let the control API map a failure to 404, 409 or 400 without string matching.
var (
	ErrNotFound = errors.New("not found")
	ErrExists   = errors.New("already exists")
	ErrInvalid  = errors.New("invalid input")
)

// Options configures a simulator. Zero values give Google's defaults.
type Options struct {
	ClientID, ClientSecret string
	// RedirectURIs are the OAuth client's registered redirect URIs; Google
	// accepts only an exact match. Empty = any absolute http(s) URI.
	RedirectURIs []string
	AutoApprove  bool             // skip the consent page: authorize redirects at once, as the first user
	TokenTTL     time.Duration    // 0 = 1h, Google's access-token lifetime
	Clock        func() time.Time // nil = time.Now; drives token expiry, quota windows and "today"
	Log          *slog.Logger     // nil = discard
}

// Server is one in-memory Google: users, GA4 accounts and properties with
// daily data, the OAuth client's grants and tokens. All state sits behind one mutex.
type Server struct {
	o       Options
	log     *slog.Logger
	handler http.Handler

	mu       sync.Mutex
	users    []string // in creation order: the account chooser's order
	accounts map[string]*account
	props    map[string]*property
	codes    map[string]*authCode
	tokens   map[string]*accessToken
	refresh  map[string]*grant
	consent  map[string]bool // users who already consented to this client: no second refresh token without prompt=consent
	failNext []Failure
}

// New builds a simulator with no users or properties; call SeedDemo or the
// Create* methods next.
func New(o Options) *Server {
	if o.TokenTTL == 0 {
		o.TokenTTL = time.Hour
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Server{o: o, log: o.Log}
	s.resetLocked()
	s.handler = s.routes()
	return s
}

func (s *Server) resetLocked() {
	s.users = nil
	s.accounts = map[string]*account{}
	s.props = map[string]*property{}
	s.codes = map[string]*authCode{}
	s.tokens = map[string]*accessToken{}
	s.refresh = map[string]*grant{}
	s.consent = map[string]bool{}
	s.failNext = nil
}

// Handler serves the whole surface: Google's OAuth, Admin and Data API paths
// on one host, and the /_control API.
func (s *Server) Handler() http.Handler { return s.handler }

func (s *Server) now() time.Time { return s.o.Clock() }

func (s *Server) routes() http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("GET /o/oauth2/v2/auth", s.handleAuthorize)
	m.HandleFunc("POST /o/oauth2/v2/auth", s.handleAuthorize)
	m.HandleFunc("POST /token", s.handleToken)
	m.HandleFunc("POST /revoke", s.handleRevoke)
	m.HandleFunc("GET /v1beta/accountSummaries", s.api(s.handleAccountSummaries))
	m.HandleFunc("POST /v1beta/{property...}", s.api(s.handleRunReport))

	m.HandleFunc("GET /_control/healthz", s.ctlHealth)
	m.HandleFunc("POST /_control/reset", s.ctlReset)
	m.HandleFunc("POST /_control/users", s.ctlCreateUser)
	m.HandleFunc("POST /_control/accounts", s.ctlCreateAccount)
	m.HandleFunc("POST /_control/properties", s.ctlCreateProperty)
	m.HandleFunc("PUT /_control/properties/{id}/days", s.ctlSetDays)
	m.HandleFunc("PUT /_control/properties/{id}/quality", s.ctlQuality)
	m.HandleFunc("POST /_control/properties/{id}/exhaust-quota", s.ctlExhaust)
	m.HandleFunc("POST /_control/fail", s.ctlFail)
	m.HandleFunc("POST /_control/expire-tokens", s.ctlExpireTokens)
	return simkit.Recover(s.log, m, func(w http.ResponseWriter) {
		apiError(w, http.StatusInternalServerError, "INTERNAL", "Internal error encountered.")
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

// apiError writes the error body Google's JSON APIs share:
// {"error": {"code", "message", "status"}}.
func apiError(w http.ResponseWriter, code int, status, msg string) {
	writeJSON(w, code, map[string]any{"error": map[string]any{"code": code, "message": msg, "status": status}})
}
