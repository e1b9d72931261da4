// Package service is the digest service's composition root: settings, then
// the adapters wired into the app and the app into its ports (gRPC, event
// consumers, the sender).
package service

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"

	digestv1 "uplift.dev/proto/gen/uplift/digest/v1"

	"uplift.dev/digest/internal/adapters/metrics"
	"uplift.dev/digest/internal/adapters/postgres"
	"uplift.dev/digest/internal/adapters/smtp"
	"uplift.dev/digest/internal/app"
	"uplift.dev/digest/internal/domain"
	"uplift.dev/digest/internal/ports/eventport"
	"uplift.dev/digest/internal/ports/grpcport"
	"uplift.dev/digest/internal/ports/sendworker"
	"uplift.dev/digest/internal/templates"
	"uplift.dev/platform/grpcserver"
	"uplift.dev/platform/service"
)

// Settings are the digest binary's settings, read once from the environment.
type Settings struct {
	service.Base
	// SMTPAddr is the relay, host:port (locally the MailDev sink).
	SMTPAddr     string `env:"SMTP_ADDR" required:"true"`
	SMTPUsername string `env:"SMTP_USERNAME"`
	SMTPPassword string `env:"SMTP_PASSWORD" secret:"true"`
	SMTPFrom     string `env:"SMTP_FROM" default:"Uplift <hello@uplift.example>"`
	// SMTPTimeout bounds one send; the claimed row stays locked meanwhile.
	SMTPTimeout time.Duration `env:"SMTP_TIMEOUT" default:"30s"`
	// WebURL is where links in emails point.
	WebURL string `env:"WEB_URL" default:"http://localhost:3000"`
	// EmailRetryBase is the wait after a first failed send; it doubles per
	// attempt up to EmailRetryMax. EmailMaxAttempts then marks it failed
	// (30 attempts at the defaults is about a day of trying).
	EmailRetryBase   time.Duration `env:"EMAIL_RETRY_BASE" default:"30s"`
	EmailRetryMax    time.Duration `env:"EMAIL_RETRY_MAX" default:"1h"`
	EmailMaxAttempts int           `env:"EMAIL_MAX_ATTEMPTS" default:"30"`
	// EmailPoll is how often the sender looks for due retries.
	EmailPoll time.Duration `env:"EMAIL_POLL" default:"2s"`
	// PublicAPIURL is the gateway's public address; unsubscribe links in
	// emails (List-Unsubscribe and the footer) point to it.
	PublicAPIURL string `env:"PUBLIC_API_URL" default:"http://127.0.0.1:8080"`
	// UnsubscribeSecret signs unsubscribe tokens (HMAC-SHA256), at least
	// 32 bytes. Changing it invalidates every link already sent.
	UnsubscribeSecret string `env:"UNSUBSCRIBE_SECRET" required:"true" secret:"true"`
}

// Wire builds the digest service from cfg, read when the runtime starts.
func Wire(cfg *Settings) service.Wire {
	return func(_ context.Context, rt *service.Runtime) (grpcserver.Options, []func(context.Context) error, error) {
		if cfg.EmailRetryBase <= 0 || cfg.EmailRetryMax < cfg.EmailRetryBase {
			return grpcserver.Options{}, nil, errors.New("EMAIL_RETRY_BASE must be positive and at most EMAIL_RETRY_MAX")
		}
		mailer, err := smtp.New(smtp.Config{
			Addr: cfg.SMTPAddr, Username: cfg.SMTPUsername, Password: cfg.SMTPPassword,
			From: cfg.SMTPFrom, Timeout: cfg.SMTPTimeout, Clock: rt.Clock,
		})
		if err != nil {
			return grpcserver.Options{}, nil, err
		}
		// Its kept connections end after the last send in flight.
		rt.Defer(mailer.Close)
		signer, err := domain.NewTokenSigner(cfg.UnsubscribeSecret)
		if err != nil {
			return grpcserver.Options{}, nil, err
		}
		render, err := templates.New(cfg.WebURL)
		if err != nil {
			return grpcserver.Options{}, nil, err
		}
		if render, err = render.WithUnsubscribe(cfg.PublicAPIURL, signer, rt.Clock); err != nil {
			return grpcserver.Options{}, nil, err
		}
		repo := postgres.Repo{DB: rt.Pool}
		retry := domain.RetryPolicy{Base: cfg.EmailRetryBase, Max: cfg.EmailRetryMax, MaxAttempts: cfg.EmailMaxAttempts}
		// The service's own registry, served by the platform's /metrics.
		reg := prometheus.NewRegistry()
		counters, err := metrics.New(reg)
		if err != nil {
			return grpcserver.Options{}, nil, err
		}
		a := app.New(repo, render, mailer, retry, rt.Log).WithTokens(signer).WithMetrics(counters).WithClock(rt.Clock)
		consumers := eventport.Consumers{
			Bus: rt.Bus, App: a,
			InTx: func(tx pgx.Tx) app.EventStore { return postgres.Repo{DB: tx} },
		}
		sender := sendworker.Worker{Pool: rt.Pool, Channel: postgres.NotifyChannel, Sender: a, Log: rt.Log, Poll: cfg.EmailPoll}
		return grpcserver.Options{
			Public:  grpcport.PublicMethods,
			Metrics: reg,
			Register: func(s *grpc.Server) {
				digestv1.RegisterDigestServiceServer(s, &grpcport.Server{App: a, Log: rt.Log,
					PublicAPIURL: strings.TrimRight(cfg.PublicAPIURL, "/")})
			},
		}, append(consumers.Workers(), sender.Run), nil
	}
}
