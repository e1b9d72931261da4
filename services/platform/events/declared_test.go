package events_test

import (
	"strings"
	"testing"

	"uplift.dev/platform/events"
)

// What these tests consume and listen to, declared as each service
// declares its own (its package bus): the kit holds no service's.
var (
	usersBilling     = events.Declare("users", "users-billing", events.SubjectBillingChanged)
	digestWelcome    = events.Declare("digest", "digest-welcome", events.SubjectUserCreated)
	storesRoleAccess = events.DeclareListener("stores", events.SubjectUserRoleChanged)
)

// TestAWrongDeclarationStopsTheProgram: declarations run as the program
// starts, so a consumer named for another service, one that reads what
// nobody may publish, or a name taken twice stops it there, with the reason,
// rather than as a NATS permission error at the first event.
func TestAWrongDeclarationStopsTheProgram(t *testing.T) {
	for name, try := range map[string]struct {
		declare func()
		want    string
	}{
		"another service's name": {func() { events.Declare("stores", "users-billing-2", events.SubjectBillingChanged) }, "must be named stores-"},
		"nobody publishes it":    {func() { events.Declare("stores", "stores-nothing", "uplift.nothing") }, "no service may publish"},
		"a name taken":           {func() { events.Declare("users", usersBilling.Durable, events.SubjectUserCreated) }, "declared twice"},
		"a listener on nothing":  {func() { events.DeclareListener("stores", "uplift.nothing") }, "no service may publish"},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				r := recover()
				if msg, _ := r.(string); !strings.Contains(msg, try.want) {
					t.Fatalf("recovered %v, want a panic saying %q", r, try.want)
				}
			}()
			try.declare()
		})
	}
	if got := events.ConsumersOf("stores"); len(got) != 0 {
		t.Fatalf("a refused declaration was kept: %+v", got)
	}
}
