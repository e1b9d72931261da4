// Command shopifysim runs the Shopify simulator on loopback for `make run`
// and manual testing, the way stripe-mock stands in for Stripe.
package main

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"uplift.dev/shopifysim/sim"
	"uplift.dev/simkit"
)

func main() { simkit.Main("shopifysim", run) }

func run(log *slog.Logger, args []string) error {
	fs := flag.NewFlagSet("shopifysim", flag.ContinueOnError)
	addr := fs.String("addr", simkit.EnvOr("SHOPIFY_SIM_ADDR", "127.0.0.1:9300"), "listen address (env SHOPIFY_SIM_ADDR)")
	key := fs.String("api-key", simkit.EnvOr("SHOPIFY_API_KEY", ""), "the app's client id (env SHOPIFY_API_KEY)")
	secret := fs.String("api-secret", simkit.EnvOr("SHOPIFY_API_SECRET", ""), "the app's client secret (env SHOPIFY_API_SECRET)")
	demo := fs.Bool("demo", false, "seed the demo shop "+sim.DemoShop)
	auto := fs.Bool("auto-approve", false, "skip the consent page on authorize")
	demoStore := fs.String("demo-store-url", simkit.EnvOr("SHOPIFY_SIM_DEMO_STORE_URL", ""), "the demo business's website, whose product photos the demo shop shows (env SHOPIFY_SIM_DEMO_STORE_URL)")
	compliance := fs.String("compliance-url", "", "where the compliance webhooks (customers/data_request, customers/redact, shop/redact) go")
	public := fs.String("public-url", "", "the simulator's address as its clients reach it, when that is not -addr (a forwarder in front of it); the bulk results' URLs are built from it")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *key == "" || *secret == "" {
		return errors.New("-api-key and -api-secret (or SHOPIFY_API_KEY and SHOPIFY_API_SECRET) are required")
	}
	ln, err := simkit.Listen(*addr)
	if err != nil {
		return err
	}
	s := sim.New(sim.Options{APIKey: *key, APISecret: *secret, AutoApprove: *auto, ComplianceURL: *compliance, DemoStoreURL: *demoStore, Log: log})
	defer s.Close()
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
	log.Info("shopifysim listening", "addr", ln.Addr().String(), "demo", *demo, "auto_approve", *auto)
	return simkit.Serve(log, "shopifysim", ln, s.Handler())
}
