// Package service is the users service's composition root: it wires the
// adapters into the app and the app into the gRPC port.
package service

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/jackc/pgx/v5"
	"google.golang.org/grpc"

	usersv1 "uplift.dev/proto/gen/uplift/users/v1"

	"uplift.dev/platform/grpcserver"
	"uplift.dev/platform/service"
	"uplift.dev/users/internal/adapters/firebase"
	"uplift.dev/users/internal/adapters/postgres"
	"uplift.dev/users/internal/app"
	"uplift.dev/users/internal/domain"
	"uplift.dev/users/internal/ports/eventport"
	"uplift.dev/users/internal/ports/grpcport"
)

// Settings are the users binary's settings.
type Settings struct {
	service.Base
	// WebURL is the web app; reset-password links continue there.
	WebURL string `env:"WEB_URL" default:"http://localhost:3000"`
	// AuditRetention is how long audit rows are kept, also after the users
	// and data they describe are deleted; unset, domain.DefaultAuditRetention
	// (400 days).
	AuditRetention time.Duration `env:"AUDIT_RETENTION"`
}

// Wire returns the composition root for settings s (read by service.Main
// before Wire runs).
func Wire(s *Settings) service.Wire {
	return func(ctx context.Context, rt *service.Runtime) (grpcserver.Options, []func(context.Context) error, error) {
		if u, err := url.Parse(s.WebURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return grpcserver.Options{}, nil, fmt.Errorf("WEB_URL: %q is not an absolute http(s) URL", s.WebURL)
		}
		repo := postgres.Repo{Pool: rt.Pool, Now: rt.Clock}
		accounts, err := firebase.NewAccountsAPI(ctx, s.FirebaseProjectID, s.FirebaseAuthEmulatorHost)
		if err != nil {
			return grpcserver.Options{}, nil, err
		}
		identity := firebase.Identity{Client: rt.Auth, ResetContinueURL: s.WebURL, Accounts: accounts}
		a := app.New(identity, repo, rt.Log).WithClock(rt.Clock).WithEmailVerification(identity, repo)
		keep := s.AuditRetention
		if keep == 0 {
			keep = domain.DefaultAuditRetention
		}
		if keep < domain.AuditLogWindow {
			return grpcserver.Options{}, nil, fmt.Errorf("AUDIT_RETENTION: %s is shorter than the %s owners can read", keep, domain.AuditLogWindow)
		}
		consumers := eventport.Consumers{Bus: rt.Bus, App: a,
			InTx: func(tx pgx.Tx) app.EventStore { return postgres.TxRepo{Tx: tx} }}
		retention := func(ctx context.Context) error { return a.RunAuditRetention(ctx, keep, time.Hour) }
		return grpcserver.Options{
			Public:   grpcport.PublicMethods,
			Backends: grpcport.Backends,
			Register: func(g *grpc.Server) {
				usersv1.RegisterUsersServiceServer(g, &grpcport.Server{App: a, Log: rt.Log})
			},
		}, append(consumers.Workers(), retention, a.RunPasswordResets), nil
	}
}
