// Package bus declares what the studio service reads from the event bus:
// its durable consumers and the listeners each copy holds. Its event port
// and composition root run them; the deploy tooling (deploy/local) links
// this package in to grant the service's NATS identity exactly these and
// nothing more (platform/natsauth), so a change here changes this service's
// permissions alone.
package bus

import "uplift.dev/platform/events"

// Consumers: who owns each category, and their plan.
var (
	UsersCreated = events.Declare("studio", "studio-users-created", events.SubjectUserCreated)
	UsersDeleted = events.Declare("studio", "studio-users-deleted", events.SubjectUserDeleted)
	Billing      = events.Declare("studio", "studio-billing", events.SubjectBillingChanged)
)

// Each copy caches who may act on a category (uplift.dev/proto/categoryaccess)
// and forgets it when the category changes or a user's roles do.
var (
	CategoryAccess = events.DeclareListener("studio", events.SubjectCategoryUpdated)
	RoleAccess     = events.DeclareListener("studio", events.SubjectUserRoleChanged)
)
