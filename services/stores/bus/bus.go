// Package bus declares what the stores service reads from the event bus:
// its durable consumer and the listeners each copy holds. Its event port
// and composition root run them; the deploy tooling (deploy/local) links
// this package in to grant the service's NATS identity exactly these and
// nothing more (platform/natsauth), so a change here changes this service's
// permissions alone.
package bus

import "uplift.dev/platform/events"

// UserDeleted is the consumer that removes a deleted user's stores.
var UserDeleted = events.Declare("stores", "stores-users-deleted", events.SubjectUserDeleted)

// Each copy caches who may act on a category (uplift.dev/proto/categoryaccess)
// and forgets it when the category changes (its owner) or an operator
// changes a user's roles.
var (
	CategoryAccess = events.DeclareListener("stores", events.SubjectCategoryUpdated)
	RoleAccess     = events.DeclareListener("stores", events.SubjectUserRoleChanged)
)
