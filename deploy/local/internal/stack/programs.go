package stack

// The stack runs every program and mints each its NATS identity
// (devstack nats-keys too), so it links every program's declaration of what
// it reads from the bus: natsauth builds each identity's permissions from
// the declarations linked into the program that asks.
import (
	_ "uplift.dev/billing/bus"
	_ "uplift.dev/categories/bus"
	_ "uplift.dev/digest/bus"
	_ "uplift.dev/gateway/bus"
	_ "uplift.dev/review/bus"
	_ "uplift.dev/stores/bus"
	_ "uplift.dev/studio/bus"
	_ "uplift.dev/users/bus"
)
