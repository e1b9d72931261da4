// Package bus declares what the categories service reads from the event
// bus: its durable consumers. Its event port runs them; the deploy tooling
// (deploy/local) links this package in to grant the service's NATS identity
// exactly these and nothing more (platform/natsauth), so a change here
// changes this service's permissions alone.
package bus

import "uplift.dev/platform/events"

// Consumers. A review's progress has a consumer of its own, so a burst of
// progress never holds up a finished review.
var (
	Users          = events.Declare("categories", "categories-users", events.SubjectUserCreated)
	UsersDeleted   = events.Declare("categories", "categories-users-deleted", events.SubjectUserDeleted)
	Unsubscribed   = events.Declare("categories", "categories-users-unsubscribed", events.SubjectUserUnsubscribed)
	StoreSignals   = events.Declare("categories", "categories-store-signals", events.SubjectStoreSignalsUpdated)
	EmailKind      = events.Declare("categories", "categories-email-kind-unsubscribed", events.SubjectEmailKindUnsubscribed)
	ReviewProgress = events.Declare("categories", "categories-review-progressed", events.SubjectReviewProgressed)
	ReviewDone     = events.Declare("categories", "categories-review-completed", events.SubjectReviewCompleted)
	ReviewFailed   = events.Declare("categories", "categories-review-failed", events.SubjectReviewFailed)
)
