// Package service is the categories service's composition root: it wires
// the adapters into the app and the app into the gRPC port and the event
// consumers.
package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"google.golang.org/grpc"

	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"

	"uplift.dev/categories/internal/adapters/postgres"
	"uplift.dev/categories/internal/adapters/users"
	"uplift.dev/categories/internal/app"
	"uplift.dev/categories/internal/ports/eventport"
	"uplift.dev/categories/internal/ports/grpcport"
	"uplift.dev/platform/clock"
	"uplift.dev/platform/grpcclient"
	"uplift.dev/platform/grpcserver"
	"uplift.dev/platform/schedule"
	"uplift.dev/platform/service"
)

// Deps are what the composition root is given rather than builds: the
// users service's address and the website analysis engine, so tests can
// pass a fake engine and a fake users service.
type Deps struct {
	UsersAddr string
	Analyzer  app.Analyzer
	Options   app.Options
	// SchedulePoll is how often categories are checked for a due weekly
	// website review or daily report without data; 0 turns the schedule
	// off on this replica.
	SchedulePoll time.Duration
	// Calendar names seasonal dates in the daily report without data; nil
	// leaves them out.
	Calendar app.Calendar
	// Catalogue reads store catalogues for the product studio; nil leaves
	// ListCatalogueProducts and GetProductImage failing.
	Catalogue app.Catalogue
	// Now is the service's clock (the schedule, the dates it records and
	// shows); nil is the runtime's (service.Runtime.Clock). Tests move it.
	Now clock.Clock
	// ReviewsElsewhere leaves ReviewRequested to the review worker
	// (cmd/reviewworker), which measures speed in a browser; the API then
	// only asks for reviews.
	ReviewsElsewhere bool
}

// Wire returns the service's wiring for a started runtime.
func Wire(d Deps) service.Wire {
	return func(_ context.Context, rt *service.Runtime) (grpcserver.Options, []func(context.Context) error, error) {
		conn, err := grpcclient.New(d.UsersAddr)
		if err != nil {
			return grpcserver.Options{}, nil, fmt.Errorf("users service %s: %w", d.UsersAddr, err)
		}
		now := d.Now
		if now == nil {
			now = rt.Clock
		}
		repo := postgres.New(rt.Pool).WithClock(now)
		a := app.New(repo, d.Analyzer, users.New(conn), rt.Log, d.Options).WithClock(now)
		if d.Calendar != nil {
			a = a.WithCalendar(d.Calendar)
		}
		if d.Catalogue != nil {
			a = a.WithCatalogue(d.Catalogue)
		}
		consumers := eventport.Consumers{Bus: rt.Bus, Repo: repo, App: a}
		closeConn := func(ctx context.Context) error {
			<-ctx.Done()
			return conn.Close()
		}
		workers := []func(context.Context) error{consumers.RunUsers, consumers.RunUsersDeleted, consumers.RunUnsubscribed,
			consumers.RunEmailKindUnsubscribed, consumers.RunStoreSignals, closeConn}
		if !d.ReviewsElsewhere {
			workers = append(workers, consumers.RunReviews)
		}
		if d.SchedulePoll > 0 {
			workers = append(workers, func(ctx context.Context) error {
				return schedule.Every(ctx, d.SchedulePoll, func(ctx context.Context) error {
					_, werr := a.StartDueWeeklyReviews(ctx)
					_, derr := a.PublishDueNoDataReports(ctx)
					return errors.Join(werr, derr)
				}, func(err error) { rt.Log.Warn("recurring email round failed; will retry", "err", err) })
			})
		}
		return grpcserver.Options{
			Public: grpcport.PublicMethods,
			Register: func(s *grpc.Server) {
				categoriesv1.RegisterCategoriesServiceServer(s, &grpcport.Server{App: a, Log: rt.Log})
			},
		}, workers, nil
	}
}
