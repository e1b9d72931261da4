// Command gateway serves Uplift's REST API on top of the services' gRPC APIs.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
	"uplift.dev/gateway/internal/gateway"
	"uplift.dev/platform/events"
	"uplift.dev/platform/mtls"
	"uplift.dev/platform/program"
)

type settings struct {
	Addr           string `env:"GATEWAY_ADDR" default:"127.0.0.1:8080"`
	UsersAddr      string `env:"USERS_ADDR" default:"127.0.0.1:9001"`
	CategoriesAddr string `env:"CATEGORIES_ADDR" default:"127.0.0.1:9002"`
	BillingAddr    string `env:"BILLING_ADDR" default:"127.0.0.1:9003"`
	DigestAddr     string `env:"DIGEST_ADDR" default:"127.0.0.1:9004"`
	StoresAddr     string `env:"STORES_ADDR" default:"127.0.0.1:9005"`
	StudioAddr     string `env:"STUDIO_ADDR" default:"127.0.0.1:9006"`
	// WebURL is the web app, where expired Shopify links send the browser.
	WebURL       string   `env:"WEB_URL" default:"http://localhost:3000"`
	WebOrigins   []string `env:"WEB_ORIGINS" default:"http://localhost:3000,http://127.0.0.1:3000"`
	MaxBodyBytes int      `env:"MAX_BODY_BYTES" default:"1048576"`
	LogLevel     string   `env:"LOG_LEVEL" default:"info"`
	// NATSURL feeds the live report stream; unset, /events answers 503.
	NATSURL string `env:"NATS_URL"`
	// NATSNKeySeed is the gateway's own NATS user nkey seed: it may only
	// listen to report events. Required with NATS_URL.
	NATSNKeySeed string `env:"NATS_NKEY_SEED" secret:"true"`
	// NATSUserJWT is its user JWT on an operator-mode NATS (`devstack
	// nats-keys -jwt`); unset where the servers list the keys.
	NATSUserJWT string `env:"NATS_USER_JWT"`
	// NATSSenderKeys are the publishers' public nkeys (service=U...,...):
	// a report event not signed by categories is not streamed.
	NATSSenderKeys string `env:"NATS_SENDER_KEYS"`
	// NATSCAFile is the CA of the NATS servers' certificates (tls:// URL).
	NATSCAFile string `env:"NATS_CA_FILE"`
	// WebsiteScorePerMinute limits public website checks per client IP.
	WebsiteScorePerMinute int `env:"WEBSITE_SCORE_PER_MINUTE" default:"10"`
	// SignUpsPerHour limits sign-ups (POST internal/users) per client IP.
	SignUpsPerHour int `env:"SIGN_UPS_PER_HOUR" default:"20"`
	// RecoveryCodesPerHour limits recovery code tries per client IP.
	RecoveryCodesPerHour int `env:"RECOVERY_CODES_PER_HOUR" default:"10"`
	// PasswordResetsPerHour limits password reset emails asked for per client IP.
	PasswordResetsPerHour int `env:"PASSWORD_RESETS_PER_HOUR" default:"10"`
	// EventStreamsPerUser bounds the live report streams one user holds
	// open at once through this gateway.
	EventStreamsPerUser int `env:"EVENT_STREAMS_PER_USER" default:"10"`
	// TrustedProxyCIDRs are the ingress/load balancer addresses whose
	// X-Forwarded-For is believed (comma-separated CIDRs or IPs); empty
	// trusts nobody and the connection's peer is the client.
	TrustedProxyCIDRs []string `env:"TRUSTED_PROXY_CIDRS"`
	// MetricsAddr serves /metrics for Prometheus, apart from the public
	// address (which serves none); loopback by default.
	MetricsAddr string `env:"GATEWAY_METRICS_ADDR" default:"127.0.0.1:8180"`
	// ReadTimeout bounds how long a request's headers and body may take to
	// arrive (the order import gets 3 minutes).
	ReadTimeout time.Duration `env:"GATEWAY_READ_TIMEOUT" default:"15s"`
	// AllowedHosts are the Host header values served (comma-separated,
	// "name" for any port or "name:port"); empty serves localhost,
	// 127.0.0.1 and [::1] on GATEWAY_ADDR's port. Others get 421.
	AllowedHosts []string `env:"GATEWAY_ALLOWED_HOSTS"`
	// ConnsPerBackend is how many gRPC connections go to each service,
	// used in turn (one HTTP/2 connection serialises the calls under load).
	ConnsPerBackend int `env:"GATEWAY_CONNS_PER_BACKEND" default:"4"`
	// DrainDelay is how long a stopping gateway keeps serving while its
	// /healthz answers 503; the Kubernetes manifests set it.
	DrainDelay time.Duration `env:"SHUTDOWN_DRAIN_DELAY" default:"0s"`
	// GRPC is the gateway's certificate for its calls to the services
	// (spiffe://uplift/service/gateway).
	GRPC mtls.Settings
}

// main runs through program.Command, the start-up every program shares:
// settings, the log, tracing from the OTEL_* variables (flushed on stop).
func main() {
	var cfg settings
	program.Command("gateway", &cfg, &cfg.LogLevel, func(ctx context.Context, log *slog.Logger) error {
		return run(ctx, cfg, log)
	})
}

func run(ctx context.Context, cfg settings, log *slog.Logger) error {
	if cfg.ReadTimeout <= 0 {
		return fmt.Errorf("GATEWAY_READ_TIMEOUT: must be positive, got %v", cfg.ReadTimeout)
	}
	trusted, err := gateway.ParseTrustedProxies(cfg.TrustedProxyCIDRs)
	if err != nil {
		return fmt.Errorf("TRUSTED_PROXY_CIDRS: %w", err)
	}
	hosts, err := gateway.ParseAllowedHosts(cfg.AllowedHosts)
	if err != nil {
		return fmt.Errorf("GATEWAY_ALLOWED_HOSTS: %w", err)
	}
	natsOpts, trust, err := natsSettings(cfg)
	if err != nil {
		return err
	}
	backends := map[string]string{
		"users": cfg.UsersAddr, "categories": cfg.CategoriesAddr,
		"billing": cfg.BillingAddr, "digest": cfg.DigestAddr, "stores": cfg.StoresAddr,
		"studio": cfg.StudioAddr,
	}
	// The gateway has no Auth emulator setting to tell local mode by;
	// services all on loopback are a local run.
	tls, err := cfg.GRPC.Open(gateway.AllLoopback(backends), log)
	if err != nil {
		return err
	}
	return gateway.Run(ctx, cfg.Addr, gateway.Options{
		Backends:              backends,
		TLS:                   tls,
		WebURL:                cfg.WebURL,
		AllowedOrigins:        cfg.WebOrigins,
		MaxBodyBytes:          int64(cfg.MaxBodyBytes),
		Log:                   log,
		NATSURL:               cfg.NATSURL,
		NATSOptions:           natsOpts,
		EventTrust:            trust,
		WebsiteScorePerMinute: cfg.WebsiteScorePerMinute,
		SignUpsPerHour:        cfg.SignUpsPerHour,
		RecoveryCodesPerHour:  cfg.RecoveryCodesPerHour,
		PasswordResetsPerHour: cfg.PasswordResetsPerHour,
		EventStreamsPerUser:   cfg.EventStreamsPerUser,
		DrainDelay:            cfg.DrainDelay,
		TrustedProxies:        trusted,
		MetricsAddr:           cfg.MetricsAddr,
		ReadTimeout:           cfg.ReadTimeout,
		AllowedHosts:          hosts,
		ConnsPerBackend:       cfg.ConnsPerBackend,
	})
}

// natsSettings reads the gateway's NATS identity: with NATS_URL set, the
// gateway signs in with its own key and believes only signed events.
func natsSettings(cfg settings) ([]nats.Option, *events.Trust, error) {
	if cfg.NATSURL == "" {
		return nil, nil, nil
	}
	if cfg.NATSNKeySeed == "" || cfg.NATSSenderKeys == "" {
		return nil, nil, fmt.Errorf("NATS_NKEY_SEED and NATS_SENDER_KEYS: required with NATS_URL")
	}
	signer, err := events.NewSigner("gateway", []byte(cfg.NATSNKeySeed))
	if err != nil {
		return nil, nil, fmt.Errorf("NATS_NKEY_SEED: %w", err)
	}
	if cfg.NATSUserJWT != "" {
		if err := signer.UseJWT(cfg.NATSUserJWT); err != nil {
			return nil, nil, fmt.Errorf("NATS_USER_JWT: %w", err)
		}
	}
	trust, err := events.ParseTrust(cfg.NATSSenderKeys)
	if err != nil {
		return nil, nil, fmt.Errorf("NATS_SENDER_KEYS: %w", err)
	}
	opts := []nats.Option{signer.NATSOption()}
	if cfg.NATSCAFile != "" {
		opts = append(opts, nats.RootCAs(cfg.NATSCAFile))
	}
	return opts, trust, nil
}
