// Command ga4sim runs the Google Analytics 4 simulator on loopback for
// `make run` and manual testing: Google's OAuth, Admin and Data API paths on
// one address, the way stripe-mock stands in for Stripe.
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

	"uplift.dev/ga4sim/sim"
)

func main() {
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	if err := run(log, os.Args[1:]); err != nil {
		log.Error("ga4sim stopped", "err", err)
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
	fs := flag.NewFlagSet("ga4sim", flag.ContinueOnError)
	addr := fs.String("addr", envOr("GA4_SIM_ADDR", "127.0.0.1:9302"), "listen address (env GA4_SIM_ADDR)")
	id := fs.String("client-id", envOr("GOOGLE_CLIENT_ID", ""), "the OAuth client's id (env GOOGLE_CLIENT_ID)")
	secret := fs.String("client-secret", envOr("GOOGLE_CLIENT_SECRET", ""), "the OAuth client's secret (env GOOGLE_CLIENT_SECRET)")
	redirects := fs.String("redirect-uris", envOr("GOOGLE_REDIRECT_URIS", ""), "comma-separated registered redirect URIs; empty = any http(s) URI (env GOOGLE_REDIRECT_URIS)")
	demo := fs.Bool("demo", false, "seed the demo user "+sim.DemoUser+" and the demo business's GA4 property "+sim.DemoProperty)
	auto := fs.Bool("auto-approve", false, "skip the consent page on authorize (as the first user, or login_hint)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *id == "" || *secret == "" {
		return errors.New("-client-id and -client-secret (or GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET) are required")
	}
	if host, _, err := net.SplitHostPort(*addr); err != nil || !net.ParseIP(host).IsLoopback() {
		return fmt.Errorf("-addr %q must be a loopback address such as 127.0.0.1:9302", *addr)
	}
	var uris []string
	for u := range strings.SplitSeq(*redirects, ",") {
		if u = strings.TrimSpace(u); u != "" {
			uris = append(uris, u)
		}
	}
	s := sim.New(sim.Options{ClientID: *id, ClientSecret: *secret, RedirectURIs: uris, AutoApprove: *auto, Log: log})
	if *demo {
		if err := sim.SeedDemo(s, time.Now()); err != nil {
			return fmt.Errorf("seed demo: %w", err)
		}
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	log.Info("ga4sim listening", "addr", ln.Addr().String(), "demo", *demo, "auto_approve", *auto)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	log.Info("ga4sim stopping")
	return srv.Shutdown(shutdown)
}
