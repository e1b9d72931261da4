// Package service is the billing service's composition root: it reads the
// billing settings, builds the Stripe, users and Postgres adapters, the use
// cases, the gRPC port and, in a local test stack only, the test checkout page.
package service

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"google.golang.org/grpc"

	billingv1 "uplift.dev/proto/gen/uplift/billing/v1"

	"uplift.dev/billing/internal/adapters/postgres"
	"uplift.dev/billing/internal/adapters/stripe"
	"uplift.dev/billing/internal/adapters/users"
	"uplift.dev/billing/internal/app"
	"uplift.dev/billing/internal/domain"
	"uplift.dev/billing/internal/ports/eventport"
	"uplift.dev/billing/internal/ports/grpcport"
	"uplift.dev/billing/internal/ports/testcheckout"
	"uplift.dev/platform/grpcserver"
	"uplift.dev/platform/service"
)

//go:embed default_tiers.json
var defaultTiers []byte

// Settings are the billing binary's settings.
type Settings struct {
	service.Base
	StripeSecretKey     string `env:"STRIPE_SECRET_KEY" required:"true" secret:"true"`
	StripeAPIBase       string `env:"STRIPE_API_BASE"`
	StripeWebhookSecret string `env:"STRIPE_WEBHOOK_SECRET" required:"true" secret:"true"`
	// TiersFile is a JSON file of tiers; empty means the embedded default.
	TiersFile string `env:"BILLING_TIERS_FILE"`
	UsersAddr string `env:"USERS_ADDR" default:"127.0.0.1:9001"`
	// TestCheckoutAddr enables the local test checkout page (test key and
	// STRIPE_API_BASE required).
	TestCheckoutAddr string `env:"TEST_CHECKOUT_ADDR"`
	// GatewayURL is where the test checkout page sends its webhook.
	GatewayURL string `env:"GATEWAY_URL"`
	// WebOrigins are the web app's origins, comma-separated: checkout and
	// portal return URLs must be pages on one of them.
	WebOrigins []string `env:"WEB_ORIGINS" default:"http://localhost:3000,http://127.0.0.1:3000"`
}

// LoadTiers reads the tiers file, or the embedded default when path is empty.
func LoadTiers(path string) (domain.Tiers, error) {
	raw := defaultTiers
	if path != "" {
		var err error
		if raw, err = os.ReadFile(path); err != nil {
			return nil, fmt.Errorf("BILLING_TIERS_FILE: %w", err)
		}
	}
	t, err := domain.ParseTiers(raw)
	if err != nil && path != "" {
		return nil, fmt.Errorf("BILLING_TIERS_FILE %s: %w", path, err)
	}
	return t, err
}

// Wire returns the composition root for settings s (read by service.Main
// before Wire runs).
func Wire(s *Settings) service.Wire {
	return func(ctx context.Context, rt *service.Runtime) (grpcserver.Options, []func(context.Context) error, error) {
		tiers, err := LoadTiers(s.TiersFile)
		if err != nil {
			return grpcserver.Options{}, nil, err
		}
		origins, err := domain.ParseOrigins(s.WebOrigins)
		if err != nil {
			return grpcserver.Options{}, nil, fmt.Errorf("WEB_ORIGINS: %w", err)
		}
		payments, err := stripe.New(s.StripeSecretKey, s.StripeAPIBase, s.StripeWebhookSecret)
		if err != nil {
			return grpcserver.Options{}, nil, err
		}
		conn, err := rt.Dial(s.UsersAddr)
		if err != nil {
			return grpcserver.Options{}, nil, fmt.Errorf("USERS_ADDR: %w", err)
		}
		repo := postgres.Repo{Pool: rt.Pool}
		a := app.New(tiers, repo, payments, users.New(conn), rt.Log, origins).WithClock(rt.Clock)
		rt.Defer(conn.Close)
		var workers []func(context.Context) error
		if s.TestCheckoutAddr != "" {
			var checkout func(context.Context) error
			if a, checkout, err = testCheckout(s, a, tiers, rt); err != nil {
				return grpcserver.Options{}, nil, err
			}
			workers = append(workers, checkout)
		}
		consumers := eventport.Consumers{Bus: rt.Bus, App: a,
			InTx: func(tx pgx.Tx) app.EventStore { return postgres.TxRepo{Tx: tx} }}
		workers = append(workers, consumers.Workers()...)
		return grpcserver.Options{
			Public: grpcport.PublicMethods,
			Register: func(g *grpc.Server) {
				billingv1.RegisterBillingServiceServer(g, &grpcport.Server{App: a, Log: rt.Log})
			},
		}, workers, nil
	}
}

// testCheckout serves the local test checkout page on s.TestCheckoutAddr
// and returns the use cases pointing there, with the page's worker. It is
// refused unless the Stripe keys are test keys against a mock.
func testCheckout(s *Settings, a *app.App, tiers domain.Tiers, rt *service.Runtime) (*app.App, func(context.Context) error, error) {
	if !strings.HasPrefix(s.StripeSecretKey, "sk_test_") || s.StripeAPIBase == "" {
		return nil, nil, errors.New("TEST_CHECKOUT_ADDR: the test checkout page needs a test key (sk_test_) and STRIPE_API_BASE (a Stripe mock); it is never served with live keys or real Stripe")
	}
	if s.GatewayURL == "" {
		return nil, nil, errors.New("GATEWAY_URL: required with TEST_CHECKOUT_ADDR, the test checkout posts its webhook there")
	}
	lis, err := net.Listen("tcp", s.TestCheckoutAddr)
	if err != nil {
		return nil, nil, fmt.Errorf("TEST_CHECKOUT_ADDR: %w", err)
	}
	url := "http://" + lis.Addr().String()
	a = a.WithTestCheckout(url)
	h := &testcheckout.Handler{Checkouts: a, Identities: a, Tiers: tiers, Log: rt.Log,
		WebhookURL: strings.TrimRight(s.GatewayURL, "/") + "/webhooks/stripe", WebhookSecret: s.StripeWebhookSecret}
	srv := &http.Server{Handler: h.Routes(), ReadHeaderTimeout: 10 * time.Second}
	rt.Log.Warn("serving the TEST checkout page (no real payment)", "url", url)
	return a, func(ctx context.Context) error {
		errc := make(chan error, 1)
		go func() { errc <- srv.Serve(lis) }()
		select {
		case err := <-errc:
			return fmt.Errorf("test checkout: %w", err)
		case <-ctx.Done():
		}
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return srv.Shutdown(sctx)
	}, nil
}
