// Package stack starts Uplift and the real parts it runs on, on loopback,
// with no accounts and no internet: PostgreSQL (DATABASE_URL, else a
// project-local cluster), NATS JetStream (always embedded, with auth), the
// Firebase Auth emulator, stripe-mock, an SMTP sink, the Shopify simulator
// with its demo shop, the WooCommerce simulator with its demo store, a demo
// store website, the six services, the studio
// worker and the review worker,
// the gateway and the web. Everything it starts it stops again.
package stack

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"uplift.dev/devstack/internal/demostore"
	ga4sim "uplift.dev/ga4sim/sim"
	"uplift.dev/platform/natsauth"
	"uplift.dev/platform/postgres"
)

// Ports are the loopback ports of the local stack.
type Ports struct {
	Postgres, NATS, AuthEmulator, StripeHTTP, StripeHTTPS, SMTP, SMTPWeb, ShopifySim, WooSim, Gateway, Web int
	// EmulatorHub and EmulatorLogging are the Firebase emulator suite's own
	// ports beside the Auth emulator.
	EmulatorHub, EmulatorLogging int
	// GA4Sim is the Google Analytics 4 simulator (OAuth, Admin and Data API
	// on one address), two above ShopifySim: the one between is WooCommerce's.
	GA4Sim int
	// DemoStore is the demo store website (package demostore), the one
	// loopback origin the website reader may fetch under `make run`.
	DemoStore int
	// GatewayMetrics is the gateway's internal /metrics port, apart from
	// its public one.
	GatewayMetrics int
	// SMTPWebInternal is where MailDev's own web server listens; the stack
	// serves it on SMTPWeb through a guard (sinkGuard).
	SMTPWebInternal int
	// TestCheckout is billing's local test checkout page (stripe-mock hosts
	// none); StudioWorker and ReviewWorker are the workers' /healthz and
	// /metrics.
	TestCheckout, StudioWorker, ReviewWorker int
	// JaegerOTLP is the trace store's OTLP/HTTP receiver, JaegerQuery its
	// query API and UI, JaegerQueryGRPC its query API over gRPC (StartTraces).
	JaegerOTLP, JaegerQuery, JaegerQueryGRPC int
	// The web's remotes (home, analytics, connections, account) are served
	// on Web+1 … Web+4 (frontends/scripts/serve.mjs).
	// Services are the gRPC ports of users, categories, billing, digest, stores, studio
	// and review; each serves /metrics on its port + 100.
	Services map[string]int
}

// DefaultPorts is what the README documents.
var DefaultPorts = Ports{
	Postgres: 55432, NATS: 14222, AuthEmulator: 9099, EmulatorHub: 4400, EmulatorLogging: 4500, StripeHTTP: 12111, StripeHTTPS: 12112,
	SMTP: 1025, SMTPWeb: 1080, SMTPWebInternal: 11080, ShopifySim: 9300, WooSim: 9301, GA4Sim: 9302, DemoStore: 9400, Gateway: 8080, GatewayMetrics: 8180, Web: 3000,
	TestCheckout: 9203, StudioWorker: 9206, ReviewWorker: 9207,
	JaegerOTLP: 4318, JaegerQuery: 16686, JaegerQueryGRPC: 16685,
	Services: map[string]int{"users": 9001, "categories": 9002, "billing": 9003, "digest": 9004, "stores": 9005, "studio": 9006,
		"review": 9007},
}

// MaxPortOffset bounds Shift: offsets are multiples of 10 below it, so that no
// two stacks' ports meet (the closest default ports that differ by a multiple
// of ten are 100 apart, e.g. 8080 and 8180).
const MaxPortOffset = 100

// Shift moves every port by offset, so that several stacks (one per
// worktree, or a test stack beside `make run`) can run on one machine.
func (p Ports) Shift(offset int) (Ports, error) {
	if offset < 0 || offset >= MaxPortOffset || offset%10 != 0 {
		return p, fmt.Errorf("port offset %d: use a multiple of 10 from 0 to %d", offset, MaxPortOffset-10)
	}
	out := p
	for _, port := range []*int{&out.Postgres, &out.NATS, &out.AuthEmulator, &out.StripeHTTP, &out.StripeHTTPS, &out.SMTP,
		&out.SMTPWeb, &out.ShopifySim, &out.WooSim, &out.GA4Sim, &out.Gateway, &out.Web, &out.EmulatorHub, &out.EmulatorLogging, &out.DemoStore,
		&out.GatewayMetrics, &out.SMTPWebInternal, &out.TestCheckout, &out.StudioWorker, &out.ReviewWorker,
		&out.JaegerOTLP, &out.JaegerQuery, &out.JaegerQueryGRPC} {
		*port += offset
	}
	out.Services = make(map[string]int, len(p.Services))
	for name, port := range p.Services {
		out.Services[name] = port + offset
	}
	return out, nil
}

// PortOffsetEnv names the variable devstack reads the port offset from.
const PortOffsetEnv = "UPLIFT_PORT_OFFSET"

// ServiceNames in start order.
var ServiceNames = []string{"users", "review", "categories", "billing", "digest", "stores", "studio"}

// internalOnly are the services only other services call: the gateway is
// not given their addresses, so it cannot reach them.
var internalOnly = map[string]bool{"review": true}

// Local Shopify app credentials: obviously fake, accepted only by the
// simulator. The token key seals shop tokens at rest (32 bytes, base64).
const (
	shopifyAPIKey    = "local-fake-shopify-api-key"
	shopifyAPISecret = "shpss_local_fake_secret"
	shopifyTokenKey  = "bG9jYWwtZmFrZS1zaG9waWZ5LXRva2VuLWtleS0zMmI=" // "local-fake-shopify-token-key-32b"

	// The GA4 simulator's OAuth client, as Google's look; obviously fake.
	googleClientID     = "local-fake-client.apps.googleusercontent.com"
	googleClientSecret = "GOCSPX-local-fake-secret"
)

// FirebaseProject is the emulator's project: demo- projects need no account
// and are the only ones the services accept in emulator mode.
const FirebaseProject = "demo-uplift"

// Stack is one running local stack.
type Stack struct {
	Root     string // the repository root
	StateDir string // .local
	LogDir   string // .local/logs
	Ports    Ports
	Say      func(format string, args ...any)

	// ForTests lets services read websites on loopback, where the end-to-end
	// tests serve their test stores; `make run` never sets it.
	ForTests bool

	// Copies is how many copies of each service, worker and the gateway
	// StartApps runs (0 means 1; `devstack exec -copies 2`). Copy i listens
	// on 127.0.0.(i+1) at the copy's usual ports, so each copy has an
	// address of its own, as pods do, and callers balance over the list.
	Copies int
	// NATSNodes runs NATS as a cluster of that many nodes, each a process
	// of its own that a test may kill (0 or 1: one embedded server).
	NATSNodes int

	// Traces starts Jaeger (StartTraces) and has every program send it
	// its spans (tracesEnv); `make run` and `devstack exec -traces`.
	Traces bool

	// mu guards procs, servers and stopBeside: the infrastructure's parts
	// start at once, and the trace store may start beside the product.
	mu sync.Mutex
	// stopBeside ends StartTracesBeside's work and waits for it, so
	// nothing it starts outlives Stop.
	stopBeside func()
	procs      []*proc
	servers    []*http.Server // served by this process (the SMTP sink's guard)
	nats       *server.Server
	natsURL    string
	// natsKeys are this run's NATS identities, one per program, made at
	// start and never written down.
	natsKeys *natsauth.Keyring
	stopPG   func()
	env      []string
	// dbURLs are each service's own login on the database (makeLogins);
	// env's DATABASE_URL stays the administrator's, for the tests.
	dbURLs map[string]string
}

// New prepares a stack rooted at the repository root, on the default ports
// shifted by portOffset (its state then lives apart, in .local/stack-N).
func New(root string, portOffset int, say func(string, ...any)) (*Stack, error) {
	ports, err := DefaultPorts.Shift(portOffset)
	if err != nil {
		return nil, err
	}
	state := filepath.Join(root, ".local")
	if portOffset != 0 {
		state = filepath.Join(state, "stack-"+strconv.Itoa(portOffset))
	}
	return &Stack{Root: root, StateDir: state, LogDir: filepath.Join(state, "logs"), Ports: ports, Say: say}, nil
}

// webURL is where people open the product.
func (s *Stack) webURL() string { return "http://localhost:" + strconv.Itoa(s.Ports.Web) }

func (s *Stack) say(format string, args ...any) {
	if s.Say != nil {
		s.Say(format, args...)
	}
}

func addr(port int) string { return "127.0.0.1:" + strconv.Itoa(port) }

func (s *Stack) copies() int { return max(s.Copies, 1) }

// copyAddr is copy i's address on port (copy 0's is addr(port)).
func copyAddr(i, port int) string { return "127.0.0." + strconv.Itoa(i+1) + ":" + strconv.Itoa(port) }

// copyName names copy i's process, log and pid file: users, users-2, …
func copyName(name string, i int) string {
	if i == 0 {
		return name
	}
	return name + "-" + strconv.Itoa(i+1)
}

// allCopies lists every copy's address on port, as grpcclient.New balances
// over them.
func (s *Stack) allCopies(port int) string {
	out := make([]string, s.copies())
	for i := range out {
		out[i] = copyAddr(i, port)
	}
	return strings.Join(out, ",")
}

// Env is what a program needs to reach the running stack; tests get it too.
func (s *Stack) Env() []string { return slices.Clone(s.env) }

// StartInfra starts the parts the services run on.
func (s *Stack) StartInfra(ctx context.Context) error {
	if err := os.MkdirAll(s.LogDir, 0o755); err != nil {
		return err
	}
	dbURL := os.Getenv("DATABASE_URL")
	var natsURL string
	// The parts need nothing of each other, so they start at once and the
	// stack is up in the time of the slowest (the Auth emulator's start is
	// most of a warm `make run`); each one's line and time are said in
	// this order once all are up.
	parts := []infraPart{
		{"postgres", func(ctx context.Context) (string, error) {
			where := "from DATABASE_URL"
			if dbURL == "" {
				var err error
				if dbURL, err = s.startPostgres(ctx); err != nil {
					return "", err
				}
				where = addr(s.Ports.Postgres) + " (project-local cluster)"
			}
			if err := s.makeLogins(ctx, dbURL); err != nil {
				return "", err
			}
			return fmt.Sprintf("%s, a login per service (%s…), owning its schema only", where, postgres.LoginName(ServiceNames[0])), nil
		}},
		// The stack always runs its own NATS, with a key per program and the
		// production's permissions: a machine's NATS_URL (no auth) is ignored,
		// so no local stack runs on a bus anyone can publish to.
		{"nats", func(ctx context.Context) (string, error) {
			var err error
			if s.NATSNodes > 1 {
				if natsURL, err = s.startNATSCluster(ctx, s.NATSNodes); err != nil {
					return "", err
				}
				return fmt.Sprintf("%s (a cluster of %d, JetStream R%d, a key per service)", natsURL, s.NATSNodes, s.NATSNodes), nil
			}
			if natsURL, err = s.startNATS(); err != nil {
				return "", err
			}
			return natsURL + " (embedded, JetStream, a key per service)", nil
		}},
		{"firebase", func(ctx context.Context) (string, error) {
			return fmt.Sprintf("http://%s (Auth emulator, project %s)", addr(s.Ports.AuthEmulator), FirebaseProject), s.startEmulator(ctx)
		}},
		{"stripe-mock", func(ctx context.Context) (string, error) {
			return "http://" + addr(s.Ports.StripeHTTP), s.startStripeMock(ctx)
		}},
		{"smtp sink", func(ctx context.Context) (string, error) {
			return fmt.Sprintf("%s, mail at http://%s", addr(s.Ports.SMTP), addr(s.Ports.SMTPWeb)), s.startSMTPSink(ctx)
		}},
		{"shopify sim", func(ctx context.Context) (string, error) {
			return fmt.Sprintf("http://%s (demo shop %s: connect it on Connections)", addr(s.Ports.ShopifySim), "uplift-demo.myshopify.com"), s.startShopifySim(ctx)
		}},
		{"woo sim", func(ctx context.Context) (string, error) {
			return fmt.Sprintf("http://%s (demo store %s)", addr(s.Ports.WooSim), s.wooDemoURL()), s.startWooSim(ctx)
		}},
		{"ga4 sim", func(ctx context.Context) (string, error) {
			return fmt.Sprintf("http://%s (Google sign-in as %s, demo property %s)", addr(s.Ports.GA4Sim), ga4sim.DemoUser, ga4sim.DemoProperty), s.startGA4Sim(ctx)
		}},
		{"demo store", func(context.Context) (string, error) {
			return s.DemoStoreURL() + " (save it as your website in the Business profile)", s.startDemoStore()
		}},
	}
	if err := s.startParts(ctx, parts); err != nil {
		return err
	}
	s.natsURL = natsURL
	s.env = []string{
		"DATABASE_URL=" + dbURL,
		"NATS_URL=" + natsURL,
		"NATS_SENDER_KEYS=" + s.natsKeys.SenderKeys(),
		"FIREBASE_PROJECT_ID=" + FirebaseProject,
		"FIREBASE_AUTH_EMULATOR_HOST=" + addr(s.Ports.AuthEmulator),
		"STRIPE_API_BASE=http://" + addr(s.Ports.StripeHTTP),
		// stripe-mock accepts only sk_test_ followed by letters and digits.
		"STRIPE_SECRET_KEY=sk_test_localfakekey",
		"SMTP_ADDR=" + addr(s.Ports.SMTP),
		"SMTP_SINK_API=http://" + addr(s.Ports.SMTPWeb),
		"UPLIFT_AUTH_EMULATOR_URL=http://" + addr(s.Ports.AuthEmulator),
		"UPLIFT_REQUIRE_INFRA=1",
		"SHOPIFY_API_KEY=" + shopifyAPIKey,
		"SHOPIFY_API_SECRET=" + shopifyAPISecret,
		"UPLIFT_SHOPIFY_SIM_URL=http://" + addr(s.Ports.ShopifySim),
		"UPLIFT_WOO_SIM_URL=http://" + addr(s.Ports.WooSim),
		"UPLIFT_GA4_SIM_URL=http://" + addr(s.Ports.GA4Sim),
		// Where each supervised process's current pid is, for the fault tests.
		"UPLIFT_STACK_PIDS=" + filepath.Join(s.StateDir, "pids"),
		"UPLIFT_DEMO_STORE_URL=" + s.DemoStoreURL(),
		// Where the services' links and CORS point: the web on this stack's port.
		"WEB_URL=" + s.webURL(),
		"WEB_ORIGINS=" + s.webURL() + ",http://" + addr(s.Ports.Web),
	}
	// A traced stack's programs (every one starts from s.env but the
	// gateway, given it below) send their spans to the stack's Jaeger.
	s.env = append(s.env, s.tracesEnv()...)
	if s.Traces {
		s.env = append(s.env, "UPLIFT_TRACES_URL="+s.TracesURL())
	}
	return nil
}

// StartApps starts the services, the gateway and the web, from binaries
// built into .bin and the web built into frontends/*/dist.
func (s *Stack) StartApps(ctx context.Context) error {
	bin := filepath.Join(s.Root, ".bin")
	if err := s.mintGRPCCerts(); err != nil {
		return fmt.Errorf("gRPC certificates: %w", err)
	}
	backends := []string{}
	var drain []string
	var waits []func() error
	if s.copies() > 1 {
		// A copy that is stopping says so first and keeps serving a
		// moment, so callers leave it before it closes (a cluster's
		// preStop does the same); one copy alone stops at once on Ctrl-C.
		drain = []string{"SHUTDOWN_DRAIN_DELAY=2s"}
	}
	for _, name := range ServiceNames {
		port := s.Ports.Services[name]
		for i := range s.copies() {
			if err := portFree(copyAddr(i, port)); err != nil {
				return err
			}
			p, err := s.start(copyName(name, i), append(s.serverEnv(name, i), drain...), s.Root, filepath.Join(bin, name))
			if err != nil {
				return err
			}
			if internalOnly[name] {
				// The gateway's /healthz/backends does not see it: wait
				// for it below, once every service is starting.
				waits = append(waits, func() error {
					return s.waitFor(ctx, p, copyName(name, i), 60*time.Second, httpOK("http://"+copyAddr(i, port+100)+"/healthz"))
				})
			}
		}
		if !internalOnly[name] {
			backends = append(backends, fmt.Sprintf("%s_ADDR=%s", upper(name), s.allCopies(port)))
		}
	}
	for _, wait := range waits {
		if err := wait(); err != nil {
			return err
		}
	}
	for i := range s.copies() {
		if err := s.startStudioWorker(bin, i); err != nil {
			return err
		}
		if err := s.startReviewWorker(bin, i); err != nil {
			return err
		}
	}
	// The gateway streams report events to the web from the stack's NATS.
	gwEnv := append(append(backends, drain...), "NATS_URL="+s.natsURL, "WEB_URL="+s.webURL(), "WEB_ORIGINS="+s.webURL()+",http://"+addr(s.Ports.Web),
		"NATS_NKEY_SEED="+string(s.natsKeys.Seed(natsauth.Gateway)), "NATS_SENDER_KEYS="+s.natsKeys.SenderKeys())
	gwEnv = append(gwEnv, s.tracesEnv()...)
	if s.ForTests {
		// The end-to-end tests sign up dozens of accounts, try recovery
		// codes and reset passwords, all from 127.0.0.1.
		gwEnv = append(gwEnv, "SIGN_UPS_PER_HOUR=10000", "RECOVERY_CODES_PER_HOUR=1000", "PASSWORD_RESETS_PER_HOUR=1000")
	}
	var gatewayURLs []string
	for i := range s.copies() {
		for _, port := range []int{s.Ports.Gateway, s.Ports.GatewayMetrics} {
			if err := portFree(copyAddr(i, port)); err != nil {
				return err
			}
		}
		env := append(slices.Clone(gwEnv), "GATEWAY_ADDR="+copyAddr(i, s.Ports.Gateway), "GATEWAY_METRICS_ADDR="+copyAddr(i, s.Ports.GatewayMetrics))
		env = append(env, s.grpcTLSEnv("gateway")...)
		gw, err := s.start(copyName("gateway", i), env, s.Root, filepath.Join(bin, "gateway"))
		if err != nil {
			return err
		}
		url := "http://" + copyAddr(i, s.Ports.Gateway)
		// /healthz answers for the gateway alone; /healthz/backends is 200 once
		// every service serves, which is what the web and the tests need.
		if err := s.waitFor(ctx, gw, copyName("gateway", i)+" and services", 60*time.Second, httpOK(url+"/healthz/backends")); err != nil {
			return err
		}
		gatewayURLs = append(gatewayURLs, url)
	}
	gatewayURL := gatewayURLs[0]
	s.say("grpc tls     mutual TLS, certificates in %s (ca.crt; %s.crt/.key for grpcurl: docs/grpc.md)", s.grpcTLSDir(), ExampleBackend)
	s.say("gateway      %s (REST; /healthz, /healthz/backends, /openapi.json), metrics http://%s/metrics", gatewayURL, addr(s.Ports.GatewayMetrics))
	for _, name := range ServiceNames {
		s.say("%-12s grpc %s, metrics http://%s/metrics", name, s.allCopies(s.Ports.Services[name]), addr(s.Ports.Services[name]+100))
	}
	if s.copies() > 1 {
		s.say("copies       %d of each service, worker and the gateway, copy i on 127.0.0.i (its metrics too)", s.copies())
	}
	if err := portFree(addr(s.Ports.Web)); err != nil {
		return err
	}
	web, err := s.start("web", []string{
		"UPLIFT_LOCAL=true", "WEB_PORT=" + strconv.Itoa(s.Ports.Web),
		"UPLIFT_AUTH_EMULATOR_URL=http://" + addr(s.Ports.AuthEmulator),
		"UPLIFT_FIREBASE_PROJECT_ID=" + FirebaseProject,
		"UPLIFT_API_DOMAIN=localhost:" + strconv.Itoa(s.Ports.Gateway),
		"UPLIFT_STREAM_DOMAIN=localhost:" + strconv.Itoa(s.Ports.Gateway),
		"UPLIFT_REST_BASE_URL=http://localhost:" + strconv.Itoa(s.Ports.Gateway) + "/",
		"UPLIFT_STREAM_BASE_URL=http://localhost:" + strconv.Itoa(s.Ports.Gateway) + "/events",
		"UPLIFT_REMOTE_HOME_URL=" + s.remoteURL(1),
		"UPLIFT_REMOTE_ANALYTICS_URL=" + s.remoteURL(2),
		"UPLIFT_REMOTE_CONNECTIONS_URL=" + s.remoteURL(3),
		"UPLIFT_REMOTE_ACCOUNT_URL=" + s.remoteURL(4),
	}, s.Root, "node", filepath.Join(s.Root, "frontends", "scripts", "serve.mjs"))
	if err != nil {
		return err
	}
	webURL := s.webURL()
	if err := s.waitFor(ctx, web, "web", 30*time.Second, httpOK("http://"+addr(s.Ports.Web)+"/")); err != nil {
		return err
	}
	// UPLIFT_GATEWAY_URLS lists every copy, for tests that balance between
	// them as a load balancer would.
	s.env = append(s.env, "UPLIFT_GATEWAY_URL="+gatewayURL, "UPLIFT_GATEWAY_URLS="+strings.Join(gatewayURLs, ","),
		"UPLIFT_COPIES="+strconv.Itoa(s.copies()), "UPLIFT_WEB_URL="+webURL)
	// Each copy's /metrics, for tests that see how the load spread.
	metrics := map[string]int{"GATEWAY": s.Ports.GatewayMetrics}
	for _, name := range ServiceNames {
		metrics[upper(name)] = s.Ports.Services[name] + 100
	}
	for name, port := range metrics {
		var urls []string
		for i := range s.copies() {
			urls = append(urls, "http://"+copyAddr(i, port)+"/metrics")
		}
		s.env = append(s.env, "UPLIFT_METRICS_"+name+"="+strings.Join(urls, ","))
	}
	return nil
}

// remoteURL is the remoteEntry.js of the web's n-th remote (serve.mjs order).
func (s *Stack) remoteURL(n int) string {
	return "http://localhost:" + strconv.Itoa(s.Ports.Web+n) + "/remoteEntry.js"
}

// serviceEnv is what copy i of one service needs beyond the common settings.
func (s *Stack) serviceEnv(name string, i int) []string {
	users := "USERS_ADDR=" + s.allCopies(s.Ports.Services["users"])
	switch name {
	case "billing":
		// Local only: an obviously fake webhook secret, and the test checkout
		// page (stripe-mock hosts none) posting to the gateway.
		return []string{users, "STRIPE_WEBHOOK_SECRET=whsec_local_fake_secret",
			"TEST_CHECKOUT_ADDR=" + copyAddr(i, s.Ports.TestCheckout), "GATEWAY_URL=http://" + addr(s.Ports.Gateway)}
	case "review":
		// The demo store is the one loopback origin `make run` may read;
		// the tests also serve stores of their own on other loopback ports.
		// The reviews themselves run in the review worker (with a browser).
		return []string{"FETCH_ALLOW_ORIGINS=" + strings.TrimSuffix(s.DemoStoreURL(), "/"),
			"FETCH_ALLOW_LOOPBACK=" + strconv.FormatBool(s.ForTests), "REVIEWS_IN_WORKER=true"}
	case "categories":
		// The review service reads websites for it.
		return []string{users, "REVIEW_ADDR=" + s.allCopies(s.Ports.Services["review"])}
	case "digest":
		// Local only: an obviously fake signing secret for unsubscribe links,
		// which point to the local gateway.
		return []string{"PUBLIC_API_URL=http://" + addr(s.Ports.Gateway),
			"UNSUBSCRIBE_SECRET=local-fake-unsubscribe-secret-never-use-in-production"}
	case "studio":
		return []string{"CATEGORIES_ADDR=" + s.allCopies(s.Ports.Services["categories"]), "STUDIO_BLOB_URL=" + s.studioBlobURL()}
	case "stores":
		return []string{"CATEGORIES_ADDR=" + s.allCopies(s.Ports.Services["categories"]),
			"PUBLIC_API_URL=http://" + addr(s.Ports.Gateway),
			"SHOPIFY_API_BASE=http://" + addr(s.Ports.ShopifySim), "SHOPIFY_TOKEN_KEY=" + shopifyTokenKey,
			"SYNC_POLL=2s",
			// The local gateway has no TLS and the WooCommerce simulator is on
			// loopback: local mode lets stores connect it.
			"WOOCOMMERCE_LOCAL=true",
			// Google sign-in and Google Analytics 4 are the GA4 simulator.
			"GOOGLE_CLIENT_ID=" + googleClientID, "GOOGLE_CLIENT_SECRET=" + googleClientSecret,
			"GOOGLE_ACCOUNTS_URL=http://" + addr(s.Ports.GA4Sim), "GOOGLE_OAUTH_URL=http://" + addr(s.Ports.GA4Sim),
			"GA4_ADMIN_URL=http://" + addr(s.Ports.GA4Sim), "GA4_DATA_URL=http://" + addr(s.Ports.GA4Sim)}
	}
	return nil
}

// serverEnv is the environment of copy i of service name's server: the
// stack's, with its ports, settings, NATS identity and database login, the
// later value of a variable winning.
func (s *Stack) serverEnv(name string, i int) []string {
	port := s.Ports.Services[name]
	env := append(s.Env(), "GRPC_ADDR="+copyAddr(i, port), "METRICS_ADDR="+copyAddr(i, port+100))
	env = append(env, s.serviceEnv(name, i)...)
	env = append(env, s.grpcTLSEnv(name)...)
	return append(env, "NATS_NKEY_SEED="+string(s.natsKeys.Seed(name)), s.databaseURL(name))
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 32
		}
	}
	return string(b)
}

// Stop stops everything in reverse order of start.
func (s *Stack) Stop() {
	s.mu.Lock()
	stopBeside := s.stopBeside
	s.stopBeside = nil
	s.mu.Unlock()
	if stopBeside != nil {
		stopBeside()
	}
	s.mu.Lock()
	servers, procs := s.servers, s.procs
	s.servers, s.procs = nil, nil
	s.mu.Unlock()
	for _, srv := range servers {
		_ = srv.Close()
	}
	for i := len(procs) - 1; i >= 0; i-- {
		procs[i].stop()
	}
	if s.nats != nil {
		s.nats.Shutdown()
		s.nats.WaitForShutdown()
		s.nats = nil
	}
	if s.stopPG != nil {
		s.stopPG()
		s.stopPG = nil
	}
}

func (s *Stack) startNATS() (string, error) {
	if err := portFree(addr(s.Ports.NATS)); err != nil {
		return "", err
	}
	keys, err := natsauth.NewKeyring(natsauth.Programs()...)
	if err != nil {
		return "", err
	}
	s.natsKeys = keys
	ns, err := server.NewServer(&server.Options{
		Nkeys: keys.Users(),
		Host:  "127.0.0.1", Port: s.Ports.NATS, JetStream: true,
		StoreDir: filepath.Join(s.StateDir, "nats"), NoSigs: true, NoLog: true,
	})
	if err != nil {
		return "", fmt.Errorf("embedded nats: %w", err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		return "", fmt.Errorf("embedded nats did not start")
	}
	s.nats = ns
	// The stack is the admin: it makes the stream and the gateway's
	// rate-limit bucket, which no program may (natsauth.Permissions).
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := natsauth.ConnectAndSetUp(ctx, ns.ClientURL(), keys.Seed(natsauth.Admin), "", 1); err != nil {
		return "", fmt.Errorf("embedded nats: set up: %w", err)
	}
	return ns.ClientURL(), nil
}

// startEmulator starts the Firebase Auth emulator with the accounts it had
// when it last stopped: PostgreSQL keeps the users across `make run`s, so
// the emulator must keep their sign-ins too, or every earlier local user is
// locked out (and their email taken). It exports on a clean stop (Ctrl-C,
// the end of `devstack exec`); a kill -9 of the stack loses what changed
// since the last clean stop.
//
// The export is ours alone, asked of the hub while the emulator still
// serves and waited for. The emulator's own --export-on-exit is not used:
// it runs while SIGTERM is already stopping the Auth emulator, and when it
// lost that race it replaced the good export with one whose accounts.json
// was empty (CI saw an account vanish across a restart). The emulator runs
// in a process group of its own, so a terminal's Ctrl-C never reaches it
// before the export.
func (s *Stack) startEmulator(ctx context.Context) error {
	for _, port := range []int{s.Ports.AuthEmulator, s.Ports.EmulatorHub, s.Ports.EmulatorLogging} {
		if err := portFree(addr(port)); err != nil {
			return err
		}
	}
	config, err := s.writeFirebaseConfig()
	if err != nil {
		return err
	}
	data := filepath.Join(s.StateDir, "firebase-auth")
	// The emulator finds its hub through a locator file in the temp folder,
	// keyed by project only: with a second stack running (a test's, `make
	// chaos`), an export would read the other stack's accounts.
	// A temp folder per stack keeps each emulator to its own hub.
	tmp := filepath.Join(s.StateDir, "firebase-tmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return err
	}
	dir := filepath.Join(s.Root, "deploy", "local")
	args := []string{filepath.Join(dir, "node_modules", ".bin", "firebase"), "emulators:start", "--only", "auth", "--project", FirebaseProject, "--config", config}
	// The emulator refuses to start on an --import folder it did not write.
	if _, err := os.Stat(filepath.Join(data, "firebase-export-metadata.json")); err == nil {
		args = append(args, "--import", data)
	}
	p, err := s.start("firebase-auth-emulator", []string{"NO_UPDATE_NOTIFIER=1", "FIREBASE_CLI_DISABLE_UPDATE_CHECK=true", "TMPDIR=" + tmp}, dir, args...)
	if err != nil {
		return err
	}
	p.beforeStop = func() { s.exportEmulator(data) }
	// firebase-tools serves the Auth emulator first and imports the saved
	// accounts after, so HTTP answers while the accounts are still loading
	// and a sign-in then finds none (on a loaded machine
	// TestAuthAccountsSurviveARestart got EMAIL_NOT_FOUND with "Importing
	// accounts" the log's last line). "All emulators ready" comes after.
	// The emulator took over 90 s to get there at load 35 on
	// 2 cores (several stacks building at once), so it gets 4 minutes.
	return s.waitFor(ctx, p, "Firebase Auth emulator", 4*time.Minute, emulatorReady("http://"+addr(s.Ports.AuthEmulator)+"/", p.logPath))
}

// emulatorReady is true once the emulator at url answers and its log at
// logPath says the start, the import included, is done.
func emulatorReady(url, logPath string) func() bool {
	serving := httpOK(url)
	return func() bool { return serving() && logSays(logPath, "All emulators ready") }
}

// exportEmulator asks the emulator hub to save the accounts into dir and
// waits for it to finish; a failure is said, not fatal: the accounts of the
// last good export stay where they were.
func (s *Stack) exportEmulator(dir string) {
	body, _ := json.Marshal(map[string]string{"path": dir, "initiatedBy": "devstack"})
	client := &http.Client{Timeout: time.Minute}
	resp, err := client.Post("http://"+addr(s.Ports.EmulatorHub)+"/_admin/export", "application/json", bytes.NewReader(body))
	if err != nil {
		s.say("firebase     could not save the emulator's accounts: %v", err)
		return
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		s.say("firebase     could not save the emulator's accounts: hub answered %s", resp.Status)
	}
}

// writeFirebaseConfig writes the emulator's firebase.json with the stack's
// ports (a test stack runs on other ports than `make run`).
func (s *Stack) writeFirebaseConfig() (string, error) {
	host := "127.0.0.1"
	cfg := map[string]any{"emulators": map[string]any{
		"auth":              map[string]any{"host": host, "port": s.Ports.AuthEmulator},
		"hub":               map[string]any{"host": host, "port": s.Ports.EmulatorHub},
		"logging":           map[string]any{"host": host, "port": s.Ports.EmulatorLogging},
		"ui":                map[string]any{"enabled": false},
		"singleProjectMode": true,
	}}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return "", err
	}
	path := filepath.Join(s.StateDir, "firebase.json")
	return path, os.WriteFile(path, b, 0o644)
}

func (s *Stack) startStripeMock(ctx context.Context) error {
	for _, port := range []int{s.Ports.StripeHTTP, s.Ports.StripeHTTPS} {
		if err := portFree(addr(port)); err != nil {
			return err
		}
	}
	p, err := s.start("stripe-mock", nil, s.Root, filepath.Join(s.Root, ".bin", "stripe-mock"),
		"-http-addr", addr(s.Ports.StripeHTTP), "-https-addr", addr(s.Ports.StripeHTTPS))
	if err != nil {
		return err
	}
	return s.waitFor(ctx, p, "stripe-mock", 30*time.Second, tcpUp(addr(s.Ports.StripeHTTP)))
}

func (s *Stack) startSMTPSink(ctx context.Context) error {
	for _, port := range []int{s.Ports.SMTP, s.Ports.SMTPWeb, s.Ports.SMTPWebInternal} {
		if err := portFree(addr(port)); err != nil {
			return err
		}
	}
	dir := filepath.Join(s.Root, "deploy", "local")
	p, err := s.start("smtp-sink", nil, dir, filepath.Join(dir, "node_modules", ".bin", "maildev"),
		"--ip", "127.0.0.1", "--web-ip", "127.0.0.1", "--smtp", strconv.Itoa(s.Ports.SMTP), "--web", strconv.Itoa(s.Ports.SMTPWebInternal))
	if err != nil {
		return err
	}
	// MailDev answers any Origin (and any Host): the page and API people
	// and tests use are served through sinkGuard instead.
	lis, err := net.Listen("tcp", addr(s.Ports.SMTPWeb))
	if err != nil {
		return err
	}
	upstream := &url.URL{Scheme: "http", Host: addr(s.Ports.SMTPWebInternal)}
	guard := &http.Server{Handler: sinkGuard(upstream, strconv.Itoa(s.Ports.SMTPWeb)), ReadHeaderTimeout: 10 * time.Second}
	s.mu.Lock()
	s.servers = append(s.servers, guard)
	s.mu.Unlock()
	go func() { _ = guard.Serve(lis) }()
	return s.waitFor(ctx, p, "SMTP sink", 30*time.Second, httpOK("http://"+addr(s.Ports.SMTPWeb)+"/api/healthz"))
}

// startShopifySim starts the Shopify simulator with the demo shop seeded, so
// a newcomer can connect a shop with months of orders and no account.
func (s *Stack) startShopifySim(ctx context.Context) error {
	if err := portFree(addr(s.Ports.ShopifySim)); err != nil {
		return err
	}
	p, err := s.start("shopify-sim", nil, s.Root, filepath.Join(s.Root, ".bin", "shopifysim"),
		"-addr", addr(s.Ports.ShopifySim), "-api-key", shopifyAPIKey, "-api-secret", shopifyAPISecret, "-demo",
		"-compliance-url", "http://"+addr(s.Ports.Gateway)+"/webhooks/shopify",
		// The demo shop is the demo website's business: its products show the website's photos.
		"-demo-store-url", "http://"+addr(s.Ports.DemoStore))
	if err != nil {
		return err
	}
	return s.waitFor(ctx, p, "Shopify simulator", 30*time.Second, httpOK("http://"+addr(s.Ports.ShopifySim)+"/_sim/healthz"))
}

// wooDemoURL is the WooCommerce simulator's demo store: the store URL a
// merchant types to connect it.
func (s *Stack) wooDemoURL() string { return "http://" + addr(s.Ports.WooSim) + "/fernhill" }

// startWooSim starts the WooCommerce simulator with the demo store seeded.
// The local gateway has no TLS, so the simulator accepts an http:// key
// callback, which WooCommerce itself refuses.
func (s *Stack) startWooSim(ctx context.Context) error {
	if err := portFree(addr(s.Ports.WooSim)); err != nil {
		return err
	}
	p, err := s.start("woo-sim", nil, s.Root, filepath.Join(s.Root, ".bin", "woosim"),
		"-addr", addr(s.Ports.WooSim), "-demo", "-allow-http-callback",
		// The demo store is the demo website's business: its products show the website's photos.
		"-demo-store-url", "http://"+addr(s.Ports.DemoStore))
	if err != nil {
		return err
	}
	return s.waitFor(ctx, p, "WooCommerce simulator", 30*time.Second, httpOK("http://"+addr(s.Ports.WooSim)+"/_control/healthz"))
}

// startGA4Sim starts the Google Analytics 4 simulator with the demo
// business's property seeded (its days track the demo shop's), so GA4 can
// be connected with no Google account.
func (s *Stack) startGA4Sim(ctx context.Context) error {
	if err := portFree(addr(s.Ports.GA4Sim)); err != nil {
		return err
	}
	p, err := s.start("ga4-sim", nil, s.Root, filepath.Join(s.Root, ".bin", "ga4sim"),
		"-addr", addr(s.Ports.GA4Sim), "-client-id", googleClientID, "-client-secret", googleClientSecret, "-demo")
	if err != nil {
		return err
	}
	return s.waitFor(ctx, p, "GA4 simulator", 30*time.Second, httpOK("http://"+addr(s.Ports.GA4Sim)+"/_control/healthz"))
}

// DemoStoreURL is the demo store's home page.
func (s *Stack) DemoStoreURL() string { return "http://" + addr(s.Ports.DemoStore) + "/" }

// startDemoStore serves the demo store website from this process, so a
// newcomer on an offline machine has a store the website review can read.
func (s *Stack) startDemoStore() error {
	lis, err := net.Listen("tcp", addr(s.Ports.DemoStore))
	if err != nil {
		return fmt.Errorf("demo store: %w", err)
	}
	srv := &http.Server{Handler: demostore.Handler("http://" + addr(s.Ports.DemoStore)), ReadHeaderTimeout: 10 * time.Second}
	s.mu.Lock()
	s.servers = append(s.servers, srv)
	s.mu.Unlock()
	go func() { _ = srv.Serve(lis) }()
	return nil
}
