// Package service is the categories service's composition root: it wires
// the adapters into the app and the app into the gRPC port and the event
// consumers.
package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"google.golang.org/grpc"

	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"

	"uplift.dev/categories/internal/adapters/engine"
	"uplift.dev/categories/internal/adapters/postgres"
	"uplift.dev/categories/internal/adapters/users"
	"uplift.dev/categories/internal/app"
	"uplift.dev/categories/internal/ports/eventport"
	"uplift.dev/categories/internal/ports/grpcport"
	"uplift.dev/platform/clock"
	"uplift.dev/platform/grpcserver"
	"uplift.dev/platform/schedule"
	"uplift.dev/platform/service"
)

// Settings are the categories binary's settings.
type Settings struct {
	service.Base
	// UsersAddr is the users service, asked for a caller's own category.
	UsersAddr string `env:"USERS_ADDR" default:"127.0.0.1:9001"`
	// ReviewAddr is the review service, which reads websites for the
	// profile's check, the public score, the studio's catalogue and the
	// daily report's seasonal dates (the reviews themselves are asked for
	// with ReviewRequested).
	ReviewAddr string `env:"REVIEW_ADDR" default:"127.0.0.1:9007"`
	// SchedulePoll is how often categories are checked for a due weekly
	// website review (Monday 08:00 in the business's time zone) or daily
	// report without store data (07:00); 0 turns the schedule off on this
	// replica.
	SchedulePoll time.Duration `env:"EMAIL_SCHEDULE_POLL" default:"1m"`
}

// Deps stand in for the engine and the clock Wire builds: tests pass a
// fake engine (a nil Calendar or Catalogue leaves that part out) or a
// clock they move.
type Deps struct {
	Analyzer app.Analyzer
	// Calendar names seasonal dates in the daily report without data.
	Calendar app.Calendar
	// Catalogue reads store catalogues for the product studio.
	Catalogue app.Catalogue
	// Now is the service's clock (the schedule, the dates it records and
	// shows); nil is the runtime's (service.Runtime.Clock).
	Now     clock.Clock
	Options app.Options
}

// Wire returns the composition root for settings s (read by service.Main
// before Wire runs), with the review service at s.ReviewAddr.
func Wire(s *Settings) service.Wire { return WireWith(s, nil) }

// WireWith is Wire with d in place of the engine and the clock; nil is Wire.
func WireWith(s *Settings, d *Deps) service.Wire {
	return func(_ context.Context, rt *service.Runtime) (grpcserver.Options, []func(context.Context) error, error) {
		rconn, err := rt.Dial(s.ReviewAddr)
		if err != nil {
			return grpcserver.Options{}, nil, fmt.Errorf("review service %s: %w", s.ReviewAddr, err)
		}
		if d == nil {
			eng := engine.New(rconn)
			d = &Deps{Analyzer: eng, Calendar: eng, Catalogue: eng}
		}
		now := d.Now
		if now == nil {
			now = rt.Clock
		}
		conn, err := rt.Dial(s.UsersAddr)
		if err != nil {
			_ = rconn.Close()
			return grpcserver.Options{}, nil, fmt.Errorf("users service %s: %w", s.UsersAddr, err)
		}
		repo := postgres.New(rt.Pool).WithClock(now)
		a := app.New(repo, d.Analyzer, users.New(conn), rt.Log, d.Options).WithClock(now)
		if d.Calendar != nil {
			a = a.WithCalendar(d.Calendar)
		}
		if d.Catalogue != nil {
			a = a.WithCatalogue(d.Catalogue)
		}
		consumers := eventport.Consumers{Bus: rt.Bus, App: a,
			InTx: func(tx pgx.Tx) app.Repository { return repo.WithTx(tx) }}
		rt.Defer(func() error { return errors.Join(conn.Close(), rconn.Close()) })
		workers := consumers.Workers()
		if s.SchedulePoll > 0 {
			workers = append(workers, func(ctx context.Context) error {
				return schedule.Every(ctx, s.SchedulePoll, func(ctx context.Context) error {
					_, werr := a.StartDueWeeklyReviews(ctx)
					_, derr := a.PublishDueNoDataReports(ctx)
					return errors.Join(werr, derr)
				}, func(err error) { rt.Log.Warn("recurring email round failed; will retry", "err", err) })
			})
		}
		return grpcserver.Options{
			Public: grpcport.PublicMethods,
			Register: func(g *grpc.Server) {
				categoriesv1.RegisterCategoriesServiceServer(g, &grpcport.Server{App: a, Log: rt.Log})
			},
		}, workers, nil
	}
}
