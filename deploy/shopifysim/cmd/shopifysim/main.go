// Command shopifysim runs the Shopify simulator on loopback for `make run`
// and manual testing, the way stripe-mock stands in for Stripe.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"uplift.dev/shopifysim/sim"
)

func main() {
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	if err := run(log, os.Args[1:]); err != nil {
		log.Error("shopifysim stopped", "err", err)
		os.Exit(1)
	}
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

func run(log *slog.Logger, args []string) error {
	fs := flag.NewFlagSet("shopifysim", flag.ContinueOnError)
	addr := fs.String("addr", envOr("SHOPIFY_SIM_ADDR", "127.0.0.1:9300"), "listen address (env SHOPIFY_SIM_ADDR)")
	key := fs.String("api-key", envOr("SHOPIFY_API_KEY", ""), "the app's client id (env SHOPIFY_API_KEY)")
	secret := fs.String("api-secret", envOr("SHOPIFY_API_SECRET", ""), "the app's client secret (env SHOPIFY_API_SECRET)")
	demo := fs.Bool("demo", false, "seed the demo shop "+sim.DemoShop)
	auto := fs.Bool("auto-approve", false, "skip the consent page on authorize")
	demoStore := fs.String("demo-store-url", envOr("SHOPIFY_SIM_DEMO_STORE_URL", ""), "the demo business's website, whose product photos the demo shop shows (env SHOPIFY_SIM_DEMO_STORE_URL)")
	compliance := fs.String("compliance-url", "", "where the compliance webhooks (customers/data_request, customers/redact, shop/redact) go")
	public := fs.String("public-url", "", "the simulator's address as its clients reach it, when that is not -addr (a forwarder in front of it); the bulk results' URLs are built from it")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *key == "" || *secret == "" {
		return errors.New("-api-key and -api-secret (or SHOPIFY_API_KEY and SHOPIFY_API_SECRET) are required")
	}
	if host, _, err := net.SplitHostPort(*addr); err != nil || !net.ParseIP(host).IsLoopback() {
		return fmt.Errorf("-addr %q must be a loopback address such as 127.0.0.1:9300", *addr)
	}
	s := sim.New(sim.Options{APIKey: *key, APISecret: *secret, AutoApprove: *auto, ComplianceURL: *compliance, DemoStoreURL: *demoStore, Log: log})
	defer s.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String()
	if *public != "" {
		base = strings.TrimRight(*public, "/")
	}
	s.SetBaseURL(base)
	if *demo {
		if err := sim.SeedDemo(s, time.Now()); err != nil {
			return fmt.Errorf("seed demo: %w", err)
		}
	}
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	log.Info("shopifysim listening", "addr", ln.Addr().String(), "demo", *demo, "auto_approve", *auto)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	log.Info("shopifysim stopping")
	return srv.Shutdown(shutdown)
}
