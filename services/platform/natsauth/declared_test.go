package natsauth_test

import "uplift.dev/platform/events"

// The consumers these tests grant and refuse, declared as each service
// declares its own (its package bus): the kit holds no service's.
var (
	usersBilling      = events.Declare("users", "users-billing", events.SubjectBillingChanged)
	digestReset       = events.Declare("digest", "digest-password-reset", events.SubjectPasswordResetRequested)
	storesUserDeleted = events.Declare("stores", "stores-users-deleted", events.SubjectUserDeleted)
)
