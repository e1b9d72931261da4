// Package eventport is the review service's NATS side: the durable
// consumer that runs the reviews categories asks for.
package eventport

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/review/bus"
	"uplift.dev/review/internal/app"
	"uplift.dev/review/internal/domain"

	review "uplift.dev/review/domain"
)

// Consumers runs the service's event consumers.
type Consumers struct {
	Bus events.Bus
	App *app.App
	// InTx binds the runs to a consumer's transaction; the review
	// consumer opens none (a review reads a website for minutes), so it
	// records its answer in transactions of its own (app.Runs).
	InTx func(pgx.Tx) app.Runs
	// LeaseEvery is how often a running review tells JetStream it is still
	// working, so the message is not redelivered meanwhile; 0 means 10 s.
	LeaseEvery time.Duration
}

// Workers are the consumers to run: ReviewRequested, with no transaction
// open (events.OnEach); RunReview is idempotent on its own.
func (c Consumers) Workers() []func(context.Context) error {
	return []func(context.Context) error{
		events.OnEach(c.Bus, bus.Requests, c.LeaseEvery, c.HandleReviewRequested),
	}
}

// HandleReviewRequested runs one review (app.RunReview). A report another
// run holds is tried again in a while; a request whose previous review
// cannot be read is reviewed as a first one.
func (c Consumers) HandleReviewRequested(ctx context.Context, ev *eventsv1.ReviewRequested, _ events.Meta) error {
	req := domain.ReviewRequest{CategoryID: ev.GetCategoryId(), ReportID: ev.GetReportId(), SiteURL: ev.GetSiteUrl(),
		TimeZone: ev.GetTimeZone(), Competitors: ev.GetCompetitorUrls()}
	if data := ev.GetPreviousReviewJson(); len(data) > 0 {
		var prev review.Review
		if err := json.Unmarshal(data, &prev); err == nil {
			req.Previous = &prev
		}
	}
	err := c.App.RunReview(ctx, req)
	if errors.Is(err, app.ErrReviewHeld) {
		return &events.RetryLater{Delay: heldRetry, Err: err}
	}
	return err
}

// heldRetry is how long a request for a report another run holds waits
// before it is tried again.
const heldRetry = 30 * time.Second
