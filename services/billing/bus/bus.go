// Package bus declares what the billing service reads from the event bus:
// its one durable consumer. Its event port runs them; the deploy tooling
// (deploy/local) links this package in to grant the service's NATS identity
// exactly these and nothing more (platform/natsauth), so a change here
// changes this service's permissions alone.
package bus

import "uplift.dev/platform/events"

// UserDeleted is the consumer that ends a deleted user's subscription.
var UserDeleted = events.Declare("billing", "billing-users-deleted", events.SubjectUserDeleted)
