package sim

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/graphql-go/graphql"
	_ "time/tzdata" // shops name IANA zones; the sim must not depend on the host's zoneinfo

	"uplift.dev/simkit"
)

// DemoShop is the shop SeedDemo creates, so tools and tests can name it without repeating the string.
const DemoShop = "uplift-demo.myshopify.com"

// APIVersion is the version the simulator stamps on webhook deliveries, the one Uplift pins.
const APIVersion = "2026-10"

// Sentinel errors let the control API map a failure to 404 or 400 without string matching.
var (
	ErrNoShop  = errors.New("no such shop")
	ErrNoOrder = errors.New("no such order")
	ErrExists  = errors.New("already exists")
	ErrInvalid = errors.New("invalid input")
)

// Options configures a simulator. Zero values give Shopify-like defaults with
// compressed timings, so tests need not set anything but the app credentials.
type Options struct {
	APIKey, APISecret string
	AutoApprove       bool             // skip the consent page: authorize redirects at once
	TokenTTL          time.Duration    // 0 = 1h; lifetime of expiring access tokens
	Clock             func() time.Time // nil = time.Now; drives token/code expiry, buckets and timestamps
	ComplianceURL     string           // where compliance webhooks go (app-level, not subscribed via the API)
	WebhookRetryBase  time.Duration    // 0 = 100ms; attempt n waits base×2^(n-1)
	BulkDelay         time.Duration    // 0 = 200ms; wall time a bulk operation takes to finish
	Log               *slog.Logger     // nil = discard
	// DemoStoreURL is the demo business's website (devstack's demo store),
	// whose product photos the demo shop's products show; "" = no images.
	DemoStoreURL string
}

// Server is one in-memory Shopify: shops, the app's tokens, data and webhook
// deliveries. All state sits behind one mutex; GraphQL resolvers run with it held.
type Server struct {
	o       Options
	log     *slog.Logger
	schema  graphql.Schema
	handler http.Handler
	client  *http.Client

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	baseURL string
	shops   map[string]*shop
	tokens  map[string]*accessToken
	refresh map[string]*refreshToken
	codes   map[string]*authCode
	bulkSeq int64
	bulks   map[int64]*bulkOp // by numeric id, for the JSONL download
}

// New builds a simulator with no shops; call CreateShop or SeedDemo next.
func New(o Options) *Server {
	if o.TokenTTL == 0 {
		o.TokenTTL = time.Hour
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.WebhookRetryBase == 0 {
		o.WebhookRetryBase = 100 * time.Millisecond
	}
	if o.BulkDelay == 0 {
		o.BulkDelay = 200 * time.Millisecond
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		o:       o,
		log:     o.Log,
		client:  &http.Client{Timeout: 5 * time.Second},
		ctx:     ctx,
		cancel:  cancel,
		baseURL: "http://127.0.0.1:9300",
	}
	s.resetLocked()
	s.schema = s.buildSchema()
	s.handler = s.routes()
	return s
}

func (s *Server) resetLocked() {
	s.shops = map[string]*shop{}
	s.tokens = map[string]*accessToken{}
	s.refresh = map[string]*refreshToken{}
	s.codes = map[string]*authCode{}
	s.bulks = map[int64]*bulkOp{}
}

// Handler serves the whole surface: per-shop /{shop}/admin/... and the /_sim control API.
func (s *Server) Handler() http.Handler { return s.handler }

// SetBaseURL tells the simulator its public address, which appears in bulk
// download URLs and install links.
func (s *Server) SetBaseURL(u string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.baseURL = u
}

// Close stops webhook retries and pending bulk operations and waits for them,
// so tests leave no goroutines behind.
func (s *Server) Close() {
	s.cancel()
	s.wg.Wait()
}

func (s *Server) now() time.Time { return s.o.Clock() }

// sleep waits d or until Close; it reports whether the full wait elapsed.
func (s *Server) sleep(d time.Duration) bool { return simkit.Sleep(s.ctx, d) }

func (s *Server) routes() http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("GET /{shop}/admin/oauth/authorize", s.handleAuthorize)
	m.HandleFunc("POST /{shop}/admin/oauth/authorize", s.handleAuthorize)
	m.HandleFunc("POST /{shop}/admin/oauth/access_token", s.handleAccessToken)
	m.HandleFunc("POST /{shop}/admin/api/{version}/graphql.json", s.handleGraphQL)

	m.HandleFunc("GET /_sim/healthz", s.ctlHealth)
	m.HandleFunc("POST /_sim/reset", s.ctlReset)
	m.HandleFunc("GET /_sim/install-link", s.ctlInstallLink)
	m.HandleFunc("GET /_sim/bulk/{file}", s.handleBulkFile)
	m.HandleFunc("POST /_sim/shops", s.ctlCreateShop)
	m.HandleFunc("POST /_sim/shops/{shop}/orders", s.ctlAddOrder)
	m.HandleFunc("POST /_sim/shops/{shop}/orders/{id}/refunds", s.ctlRefund)
	m.HandleFunc("POST /_sim/shops/{shop}/orders/{id}/cancel", s.ctlCancel)
	m.HandleFunc("DELETE /_sim/shops/{shop}/orders/{id}", s.ctlDeleteOrder)
	m.HandleFunc("POST /_sim/shops/{shop}/products", s.ctlAddProduct)
	m.HandleFunc("POST /_sim/shops/{shop}/customers", s.ctlAddCustomer)
	m.HandleFunc("PUT /_sim/shops/{shop}/sessions", s.ctlSessions)
	m.HandleFunc("POST /_sim/shops/{shop}/faults", s.ctlFault)
	m.HandleFunc("GET /_sim/shops/{shop}/deliveries", s.ctlDeliveries)
	m.HandleFunc("POST /_sim/shops/{shop}/uninstall", s.ctlUninstall)
	m.HandleFunc("POST /_sim/shops/{shop}/compliance/{topic...}", s.ctlCompliance)
	return simkit.Recover(s.log, m, func(w http.ResponseWriter) {
		http.Error(w, `{"errors":"Internal Server Error"}`, http.StatusInternalServerError)
	})
}
