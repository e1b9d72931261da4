package sim

import (
	"context"
	"crypto/rand"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"
	_ "time/tzdata" // stores name IANA zones; the sim must not depend on the host's zoneinfo

	"uplift.dev/simkit"
)

// DemoStore is the slug of the store SeedDemo creates: its home URL is the
// simulator's address followed by /fernhill, a WordPress in a subdirectory.
const DemoStore = "fernhill"

// Sentinel errors let the control API map a failure to 404, 409 or 400 without string matching.
var (
	ErrNoStore = errors.New("no such store")
	ErrNoOrder = errors.New("no such order")
	ErrExists  = errors.New("already exists")
	ErrInvalid = errors.New("invalid input")
)

// Options configures a simulator. Zero values give WooCommerce's behaviour
// with compressed timings.
type Options struct {
	// AutoApprove skips the grant screen: authorize approves at once.
	AutoApprove bool
	// AllowHTTPCallback accepts an http:// callback_url. WooCommerce refuses
	// it; the local stack's gateway has no TLS, so devstack turns this on.
	AllowHTTPCallback bool
	// WebhookDelay is how long a queued delivery waits before it is sent
	// (Action Scheduler's queue); events for the same webhook and resource
	// within it collapse into one. 0 = 50 ms.
	WebhookDelay time.Duration
	// WebhookRetries is how many times a failed delivery is tried again.
	// 0 is WooCommerce's behaviour: it never retries.
	WebhookRetries int
	// MaxDeliveryFailures is woocommerce_max_webhook_delivery_failures: a
	// webhook whose failure count already exceeds it is disabled by the next
	// failure. 0 = 5, WooCommerce's default.
	MaxDeliveryFailures int
	Clock               func() time.Time // nil = time.Now
	Log                 *slog.Logger     // nil = discard
	// DemoStoreURL is the demo business's website, whose product photos the
	// demo store's products show; "" = no images.
	DemoStoreURL string
}

// Server is one in-memory WordPress host with WooCommerce stores, their API
// keys and webhook deliveries. All state sits behind one mutex.
type Server struct {
	o       Options
	log     *slog.Logger
	handler http.Handler
	client  *http.Client

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	baseURL string
	stores  map[string]*store

	nonceKey [32]byte
}

// New builds a simulator with no stores; call CreateStore or SeedDemo next.
func New(o Options) *Server {
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.WebhookDelay == 0 {
		o.WebhookDelay = 50 * time.Millisecond
	}
	if o.MaxDeliveryFailures == 0 {
		o.MaxDeliveryFailures = 5
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		o:       o,
		log:     o.Log,
		client:  &http.Client{Timeout: 5 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		ctx:     ctx,
		cancel:  cancel,
		baseURL: "http://127.0.0.1:9301",
		stores:  map[string]*store{},
	}
	_, _ = rand.Read(s.nonceKey[:])
	s.handler = s.routes()
	return s
}

// Handler serves every store under /{store}/ and the /_control API.
func (s *Server) Handler() http.Handler { return s.handler }

// SetBaseURL tells the simulator its public address, which stores' home
// URLs, pagination links and webhook sources are built from.
func (s *Server) SetBaseURL(u string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.baseURL = u
}

// StoreURL is a store's home URL (WordPress's home option), with no trailing slash.
func (s *Server) StoreURL(slug string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.homeLocked(slug)
}

func (s *Server) homeLocked(slug string) string { return s.baseURL + "/" + slug }

// Close stops pending webhook deliveries and waits for them, so tests leave
// no goroutines behind.
func (s *Server) Close() {
	s.cancel()
	s.wg.Wait()
}

func (s *Server) now() time.Time { return s.o.Clock() }

// sleep waits d or until Close; it reports whether the full wait elapsed.
func (s *Server) sleep(d time.Duration) bool { return simkit.Sleep(s.ctx, d) }

func (s *Server) routes() http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("GET /{store}/wc-auth/v1/authorize", s.handleAuthorize)
	m.HandleFunc("POST /{store}/wc-auth/v1/authorize", s.handleAuthorize)
	m.HandleFunc("GET /{store}/wp-json/{$}", s.handleIndex)
	m.HandleFunc("/{store}/wp-json/wc/v3/{route...}", s.handleREST)
	m.HandleFunc("GET /{store}/{$}", s.handleHome)
	m.HandleFunc("HEAD /{store}/{$}", s.handleHome)

	m.HandleFunc("GET /_control/healthz", s.ctlHealth)
	m.HandleFunc("POST /_control/reset", s.ctlReset)
	m.HandleFunc("POST /_control/stores", s.ctlCreateStore)
	m.HandleFunc("POST /_control/stores/{store}/keys", s.ctlKey)
	m.HandleFunc("POST /_control/stores/{store}/orders", s.ctlAddOrder)
	m.HandleFunc("POST /_control/stores/{store}/orders/{id}/status", s.ctlStatus)
	m.HandleFunc("POST /_control/stores/{store}/orders/{id}/refunds", s.ctlRefund)
	m.HandleFunc("DELETE /_control/stores/{store}/orders/{id}/refunds/{refund}", s.ctlDeleteRefund)
	m.HandleFunc("DELETE /_control/stores/{store}/orders/{id}", s.ctlDeleteOrder)
	m.HandleFunc("POST /_control/stores/{store}/products", s.ctlProduct)
	m.HandleFunc("POST /_control/stores/{store}/customers", s.ctlCustomer)
	m.HandleFunc("POST /_control/stores/{store}/faults", s.ctlFault)
	m.HandleFunc("PUT /_control/stores/{store}/webhook-retries", s.ctlRetries)
	m.HandleFunc("GET /_control/stores/{store}/webhooks", s.ctlWebhooks)
	m.HandleFunc("GET /_control/stores/{store}/deliveries", s.ctlDeliveries)
	// A panic answers as WordPress's critical error does.
	return simkit.Recover(s.log, m, func(w http.ResponseWriter) {
		wcError(w, http.StatusInternalServerError, "internal_server_error", criticalError)
	})
}
