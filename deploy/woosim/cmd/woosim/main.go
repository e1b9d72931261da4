// Command woosim runs the WooCommerce simulator on loopback for `make run`
// and manual testing, the way stripe-mock stands in for Stripe.
package main

import (
	"flag"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"uplift.dev/simkit"
	"uplift.dev/woosim/sim"
)

func main() { simkit.Main("woosim", run) }

func run(log *slog.Logger, args []string) error {
	fs := flag.NewFlagSet("woosim", flag.ContinueOnError)
	addr := fs.String("addr", simkit.EnvOr("WOO_SIM_ADDR", "127.0.0.1:9301"), "listen address (env WOO_SIM_ADDR)")
	demo := fs.Bool("demo", false, "seed the demo store /"+sim.DemoStore)
	auto := fs.Bool("auto-approve", false, "skip the grant screen on authorize")
	httpCallback := fs.Bool("allow-http-callback", false, "accept an http:// callback_url (WooCommerce requires https)")
	retries := fs.Int("webhook-retries", 0, "retry a failed webhook delivery this many times (WooCommerce: 0)")
	demoStore := fs.String("demo-store-url", simkit.EnvOr("WOO_SIM_DEMO_STORE_URL", ""), "the demo business's website, whose product photos the demo store shows (env WOO_SIM_DEMO_STORE_URL)")
	public := fs.String("public-url", "", "the simulator's address as its clients reach it, when that is not -addr; store URLs and pagination links are built from it")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *retries < 0 || *retries > 10 {
		return fmt.Errorf("-webhook-retries %d: use 0 to 10", *retries)
	}
	s := sim.New(sim.Options{AutoApprove: *auto, AllowHTTPCallback: *httpCallback, WebhookRetries: *retries, DemoStoreURL: *demoStore, Log: log})
	defer s.Close()
	ln, err := simkit.Listen(*addr)
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
	log.Info("woosim listening", "addr", ln.Addr().String(), "demo", *demo, "auto_approve", *auto)
	return simkit.Serve(log, "woosim", ln, s.Handler())
}
