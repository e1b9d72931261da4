// Command woosim runs the WooCommerce simulator on loopback for `make run`
// and manual testing, the way stripe-mock stands in for Stripe.
package main

import (
	"context"
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

	"uplift.dev/woosim/sim"
)

func main() {
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	if err := run(log, os.Args[1:]); err != nil {
		log.Error("woosim stopped", "err", err)
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
	fs := flag.NewFlagSet("woosim", flag.ContinueOnError)
	addr := fs.String("addr", envOr("WOO_SIM_ADDR", "127.0.0.1:9301"), "listen address (env WOO_SIM_ADDR)")
	demo := fs.Bool("demo", false, "seed the demo store /"+sim.DemoStore)
	auto := fs.Bool("auto-approve", false, "skip the grant screen on authorize")
	httpCallback := fs.Bool("allow-http-callback", false, "accept an http:// callback_url (WooCommerce requires https)")
	retries := fs.Int("webhook-retries", 0, "retry a failed webhook delivery this many times (WooCommerce: 0)")
	demoStore := fs.String("demo-store-url", envOr("WOO_SIM_DEMO_STORE_URL", ""), "the demo business's website, whose product photos the demo store shows (env WOO_SIM_DEMO_STORE_URL)")
	public := fs.String("public-url", "", "the simulator's address as its clients reach it, when that is not -addr; store URLs and pagination links are built from it")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if host, _, err := net.SplitHostPort(*addr); err != nil || !net.ParseIP(host).IsLoopback() {
		return fmt.Errorf("-addr %q must be a loopback address such as 127.0.0.1:9301", *addr)
	}
	if *retries < 0 || *retries > 10 {
		return fmt.Errorf("-webhook-retries %d: use 0 to 10", *retries)
	}
	s := sim.New(sim.Options{AutoApprove: *auto, AllowHTTPCallback: *httpCallback, WebhookRetries: *retries, DemoStoreURL: *demoStore, Log: log})
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
	log.Info("woosim listening", "addr", ln.Addr().String(), "demo", *demo, "auto_approve", *auto)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	log.Info("woosim stopping")
	return srv.Shutdown(shutdown)
}
