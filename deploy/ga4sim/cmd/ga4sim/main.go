// Command ga4sim runs the Google Analytics 4 simulator on loopback for
// `make run` and manual testing: Google's OAuth, Admin and Data API paths on
// one address, the way stripe-mock stands in for Stripe.
package main

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"uplift.dev/ga4sim/sim"
	"uplift.dev/simkit"
)

func main() { simkit.Main("ga4sim", run) }

func run(log *slog.Logger, args []string) error {
	fs := flag.NewFlagSet("ga4sim", flag.ContinueOnError)
	addr := fs.String("addr", simkit.EnvOr("GA4_SIM_ADDR", "127.0.0.1:9302"), "listen address (env GA4_SIM_ADDR)")
	id := fs.String("client-id", simkit.EnvOr("GOOGLE_CLIENT_ID", ""), "the OAuth client's id (env GOOGLE_CLIENT_ID)")
	secret := fs.String("client-secret", simkit.EnvOr("GOOGLE_CLIENT_SECRET", ""), "the OAuth client's secret (env GOOGLE_CLIENT_SECRET)")
	redirects := fs.String("redirect-uris", simkit.EnvOr("GOOGLE_REDIRECT_URIS", ""), "comma-separated registered redirect URIs; empty = any http(s) URI (env GOOGLE_REDIRECT_URIS)")
	demo := fs.Bool("demo", false, "seed the demo user "+sim.DemoUser+" and the demo business's GA4 property "+sim.DemoProperty)
	auto := fs.Bool("auto-approve", false, "skip the consent page on authorize (as the first user, or login_hint)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *id == "" || *secret == "" {
		return errors.New("-client-id and -client-secret (or GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET) are required")
	}
	ln, err := simkit.Listen(*addr)
	if err != nil {
		return err
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
	log.Info("ga4sim listening", "addr", ln.Addr().String(), "demo", *demo, "auto_approve", *auto)
	return simkit.Serve(log, "ga4sim", ln, s.Handler())
}
