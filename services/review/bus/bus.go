// Package bus declares what the review service reads from the event bus:
// its one durable consumer. Its worker runs it (with Chromium), or the
// service itself when it has no worker; the deploy tooling (deploy/local)
// links this package in to grant the service's NATS identity exactly this
// and nothing more (platform/natsauth), so a change here changes this
// service's permissions alone.
package bus

import "uplift.dev/platform/events"

// Requests is the consumer of the reviews categories asks for.
var Requests = events.Declare("review", "review-requested", events.SubjectReviewRequested)
