// Package service is the stores service's composition root: it wires the
// Postgres, categories, Shopify and sealer adapters into the app, and the
// app into the gRPC port, the event consumer and the sync worker.
package service

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"google.golang.org/grpc"

	"uplift.dev/proto/categoryaccess"
	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/grpcserver"
	pgplatform "uplift.dev/platform/postgres"
	"uplift.dev/platform/schedule"
	"uplift.dev/platform/service"
	"uplift.dev/stores/bus"
	"uplift.dev/stores/internal/adapters/categories"
	"uplift.dev/stores/internal/adapters/ga4"
	"uplift.dev/stores/internal/adapters/postgres"
	"uplift.dev/stores/internal/adapters/sealer"
	"uplift.dev/stores/internal/adapters/shopify"
	"uplift.dev/stores/internal/adapters/woocommerce"
	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/ports/eventport"
	"uplift.dev/stores/internal/ports/grpcport"
)

// Settings are the stores binary's settings.
type Settings struct {
	service.Base
	CategoriesAddr string `env:"CATEGORIES_ADDR" default:"127.0.0.1:9002"`
	// PublicAPIURL is the gateway as browsers and Shopify reach it: the
	// OAuth callback and the webhooks are routes on it.
	PublicAPIURL string `env:"PUBLIC_API_URL" default:"http://127.0.0.1:8080"`
	// WebURL is the web app the OAuth callback returns to.
	WebURL           string `env:"WEB_URL" default:"http://localhost:3000"`
	ShopifyAPIKey    string `env:"SHOPIFY_API_KEY" required:"true"`
	ShopifyAPISecret string `env:"SHOPIFY_API_SECRET" required:"true" secret:"true"`
	// ShopifyAPIBase points every shop at a simulator ({base}/{shop}/admin/…);
	// empty means the real https://{shop}.
	ShopifyAPIBase    string `env:"SHOPIFY_API_BASE"`
	ShopifyAPIVersion string `env:"SHOPIFY_API_VERSION" default:"2026-10"`
	// TokenKey seals shop tokens at rest: 32 random bytes, base64.
	TokenKey string `env:"SHOPIFY_TOKEN_KEY" required:"true" secret:"true"`
	// SyncPoll bounds how long due work (retries, sweeps) waits to be noticed.
	SyncPoll time.Duration `env:"SYNC_POLL" default:"10s"`
	// SweepEvery is how often a connected shop is swept for missed changes.
	SweepEvery time.Duration `env:"SYNC_SWEEP_EVERY" default:"15m"`
	// ReportPoll is how often stores are checked for a due daily report
	// (07:00 store-local); a report goes out at most this late. 0 turns the
	// schedule off on this replica.
	ReportPoll time.Duration `env:"REPORT_POLL" default:"1m"`
	// ImportsInFlight is how many order imports a replica runs at once; one
	// more is refused with 429 and Retry-After (the pod's memory is sized
	// for these).
	ImportsInFlight int `env:"IMPORTS_IN_FLIGHT" default:"2"`
	// WooCommerceLocal is local mode for WooCommerce: store addresses may
	// be http:// and on loopback (the simulator). WooCommerce itself posts
	// keys only to https and a real store is never on a private address,
	// so it is off everywhere else.
	WooCommerceLocal bool `env:"WOOCOMMERCE_LOCAL" default:"false"`
	// GoogleClientID and GoogleClientSecret are Uplift's OAuth client for
	// Google Analytics 4; the defaults are obviously fake and only the
	// simulator takes them.
	GoogleClientID     string `env:"GOOGLE_CLIENT_ID" default:"unset-uplift-client.apps.googleusercontent.com"`
	GoogleClientSecret string `env:"GOOGLE_CLIENT_SECRET" default:"GOCSPX-unset-uplift-secret" secret:"true"`
	// Google's addresses: sign-in, the token endpoint, the Admin and Data
	// APIs (a simulator's locally).
	GoogleAccountsURL string `env:"GOOGLE_ACCOUNTS_URL" default:"https://accounts.google.com"`
	GoogleOAuthURL    string `env:"GOOGLE_OAUTH_URL" default:"https://oauth2.googleapis.com"`
	GA4AdminURL       string `env:"GA4_ADMIN_URL" default:"https://analyticsadmin.googleapis.com"`
	GA4DataURL        string `env:"GA4_DATA_URL" default:"https://analyticsdata.googleapis.com"`
	// GA4RefreshEvery is how often a GA4 property's recent days are read again.
	GA4RefreshEvery time.Duration `env:"GA4_REFRESH_EVERY" default:"1h"`
}

// MaxImportMessage is the largest request the service accepts: a 20 MB
// export sent whole to ImportOrders, with room for escaping. The gateway
// streams exports (UploadOrders) in pieces far smaller.
const MaxImportMessage = 64 << 20

// Wire returns the composition root for settings s (read by service.Main
// before Wire runs).
func Wire(s *Settings) service.Wire {
	return func(_ context.Context, rt *service.Runtime) (grpcserver.Options, []func(context.Context) error, error) {
		for name, v := range map[string]string{"PUBLIC_API_URL": s.PublicAPIURL, "WEB_URL": s.WebURL,
			"GOOGLE_ACCOUNTS_URL": s.GoogleAccountsURL, "GOOGLE_OAUTH_URL": s.GoogleOAuthURL,
			"GA4_ADMIN_URL": s.GA4AdminURL, "GA4_DATA_URL": s.GA4DataURL} {
			if u, err := url.Parse(v); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return grpcserver.Options{}, nil, fmt.Errorf("%s: %q is not an absolute http(s) URL", name, v)
			}
		}
		seal, err := sealer.New(s.TokenKey)
		if err != nil {
			return grpcserver.Options{}, nil, fmt.Errorf("SHOPIFY_TOKEN_KEY: %w", err)
		}
		conn, err := rt.Dial(s.CategoriesAddr)
		if err != nil {
			return grpcserver.Options{}, nil, fmt.Errorf("CATEGORIES_ADDR: %w", err)
		}
		cfg := shopify.Config{APIKey: s.ShopifyAPIKey, APISecret: s.ShopifyAPISecret, APIVersion: s.ShopifyAPIVersion, Clock: rt.Clock}
		if base := strings.TrimRight(s.ShopifyAPIBase, "/"); base != "" {
			cfg.BaseURL = func(shop string) string { return base + "/" + shop }
			rt.Log.Warn("Shopify calls go to a simulator", "base", base)
		}
		sh := shopify.New(cfg)
		api := strings.TrimRight(s.PublicAPIURL, "/")
		repo := postgres.Repo{Pool: rt.Pool}
		access := categoryaccess.New(conn, categoryaccess.Options{Clock: rt.Clock})
		a := app.New(repo, categories.New(access), sh,
			func(shop string, ts app.TokenSource) app.ShopClient { return sh.Client(shop, ts) },
			seal, rt.Log, app.Options{
				CallbackURL:     api + "/connections/shopify/callback",
				AuthorizeURL:    api + "/connections/shopify/authorize",
				WebhookURL:      api + "/webhooks/shopify",
				WebURL:          strings.TrimRight(s.WebURL, "/"),
				SweepEvery:      s.SweepEvery,
				ImportsInFlight: s.ImportsInFlight,
			}).WithClock(rt.Clock).
			WithWooCommerce(woocommerce.New(woocommerce.Config{AllowLoopback: s.WooCommerceLocal}), repo, app.WooOptions{
				CallbackURL: api + "/connections/woocommerce/callback",
				ReturnURL:   api + "/connections/woocommerce/return",
				WebhookURL:  api + "/webhooks/woocommerce",
				AllowHTTP:   s.WooCommerceLocal,
			}).
			WithGA4(ga4.New(ga4.Config{ClientID: s.GoogleClientID, ClientSecret: s.GoogleClientSecret,
				AccountsURL: s.GoogleAccountsURL, OAuthURL: s.GoogleOAuthURL, AdminURL: s.GA4AdminURL, DataURL: s.GA4DataURL}),
				repo, app.GA4Options{
					AuthorizeURL: api + "/connections/ga4/authorize",
					CallbackURL:  api + "/connections/ga4/callback",
					RefreshEvery: s.GA4RefreshEvery,
				})
		if s.GoogleAccountsURL != ga4.DefaultAccountsURL {
			rt.Log.Warn("Google calls go to a simulator", "base", s.GoogleAccountsURL)
		}
		if s.WooCommerceLocal {
			rt.Log.Warn("WooCommerce local mode: http:// and loopback store addresses are accepted")
		}
		rt.Defer(conn.Close)
		workers := []func(context.Context) error{
			events.Listen(rt.NC, rt.Bus.Trust, rt.Log, bus.CategoryAccess, access.OnCategoryUpdated),
			events.Listen(rt.NC, rt.Bus.Trust, rt.Log, bus.RoleAccess, access.OnUserRoleChanged),
			func(ctx context.Context) error {
				// One worker runs both platforms' syncs: a WooCommerce
				// store's first sync or catch-up after the Shopify round.
				round := func(ctx context.Context) error {
					return errors.Join(a.SyncRound(ctx), a.WooSyncRound(ctx), a.GA4SyncRound(ctx))
				}
				return pgplatform.RunOnNotify(ctx, rt.Pool, postgres.NotifyChannel, s.SyncPoll, round,
					func(err error) { rt.Log.Warn("sync round failed; will retry", "err", err) })
			},
		}
		if s.ReportPoll > 0 {
			workers = append(workers, func(ctx context.Context) error {
				return schedule.Every(ctx, s.ReportPoll, func(ctx context.Context) error {
					_, err := a.PublishDueReports(ctx)
					return err
				}, func(err error) { rt.Log.Warn("daily reports round failed; will retry", "err", err) })
			})
		}
		consumers := eventport.Consumers{Bus: rt.Bus, App: a,
			InTx: func(tx pgx.Tx) app.EventStore { return postgres.TxRepo{Tx: tx} }}
		workers = append(workers, consumers.Workers()...)
		return grpcserver.Options{
			Public:          grpcport.PublicMethods,
			MaxRecvMsgBytes: MaxImportMessage,
			Register: func(g *grpc.Server) {
				storesv1.RegisterStoresServiceServer(g, &grpcport.Server{App: a, Log: rt.Log})
			},
		}, workers, nil
	}
}
