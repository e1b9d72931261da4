package stack

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"uplift.dev/platform/events"
	"uplift.dev/platform/natsauth"
)

// TestEveryProgramsDeclarationsAreLinked: a service whose package bus is not
// linked here would get a NATS identity without its consumers (refused at
// its first event), or none at all if it publishes nothing.
func TestEveryProgramsDeclarationsAreLinked(t *testing.T) {
	dirs, err := os.ReadDir(filepath.Join("..", "..", "..", "..", "services"))
	if err != nil {
		t.Fatal(err)
	}
	programs := natsauth.Programs()
	for _, d := range append(dirs, nil) {
		name := natsauth.Gateway
		if d != nil {
			name = d.Name()
			if _, err := os.Stat(filepath.Join("..", "..", "..", "..", "services", name, "bus")); err != nil {
				continue // the platform kit, which reads nothing of its own
			}
		}
		if len(events.ConsumersOf(name)) == 0 && len(events.ListenersOf(name)) == 0 {
			t.Errorf("%s declares nothing it reads: is uplift.dev/%s/bus imported in programs.go?", name, name)
		}
		if !slices.Contains(programs, name) {
			t.Errorf("%s has no NATS identity (natsauth.Programs: %v)", name, programs)
		}
	}
}
