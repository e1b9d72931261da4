// Package bus declares what the users service reads from the event bus: its
// durable consumers. Its event port runs them; the deploy tooling
// (deploy/local) links this package in to grant the service's NATS identity
// exactly these and nothing more (platform/natsauth), so a change here
// changes this service's permissions alone.
package bus

import "uplift.dev/platform/events"

// Consumers.
var (
	Billing = events.Declare("users", "users-billing", events.SubjectBillingChanged)
	Audit   = events.Declare("users", "users-audit", events.SubjectActedOnBehalf)
)
