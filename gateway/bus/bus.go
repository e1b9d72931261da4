// Package bus declares what the gateway reads from the event bus: the
// listeners each copy holds (it has no durable consumer). Its composition
// root runs them; the deploy tooling (deploy/local) links this package in
// to grant the gateway's NATS identity exactly these and nothing more
// (platform/natsauth), so a change here changes the gateway's permissions
// alone.
package bus

import "uplift.dev/platform/events"

// Each copy caches who may act on a category (uplift.dev/proto/categoryaccess)
// and forgets it when the category changes or a user's roles do.
var (
	CategoryAccess = events.DeclareListener("gateway", events.SubjectCategoryUpdated)
	RoleAccess     = events.DeclareListener("gateway", events.SubjectUserRoleChanged)
)
