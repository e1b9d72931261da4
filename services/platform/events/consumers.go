package events

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Consumer is one durable consumer on the Uplift stream: the service that
// runs it, its name (JetStream keeps its position under it, and
// processed_messages the ids it handled) and the one subject it reads.
type Consumer struct {
	Service, Durable, Subject string
}

// consumers is every declared Consumer by service: the one table both the
// consumers (On, OnEach) and the NATS server's permissions (package
// natsauth: each service may make, pull from and ack only its own) are
// built from, so the two cannot drift apart. The kit holds the table but
// no entry: each program declares its own in its module's package bus
// (uplift.dev/NAME/bus), which fills it when linked in.
var consumers = map[string][]Consumer{}

// Declare adds service's durable consumer of subject to the table. It is
// called while packages initialise, so a mistake in a declaration (a name
// that is not the service's, a subject nobody may publish, a name taken)
// stops the program before it serves anything.
func Declare(service, durable, subject string) Consumer {
	c := Consumer{Service: service, Durable: durable, Subject: subject}
	if !strings.HasPrefix(durable, service+"-") {
		panic(fmt.Sprintf("events: consumer %q of %s must be named %s-…", durable, service, service))
	}
	if PublishersOf(subject) == nil {
		panic(fmt.Sprintf("events: consumer %q reads %s, which no service may publish (events.Publishers)", durable, subject))
	}
	for _, cs := range consumers {
		for _, other := range cs {
			if other.Durable == durable {
				panic(fmt.Sprintf("events: consumer %q is declared twice", durable))
			}
		}
	}
	consumers[service] = append(consumers[service], c)
	return c
}

// Declared lists every service that declared a consumer or a listener.
func Declared() []string {
	var out []string
	for s := range consumers {
		out = append(out, s)
	}
	for s := range listeners {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// check refuses a Consumer made outside this table: NATS would refuse it
// too (natsauth), but only on a server with the production permissions.
func (c Consumer) check() error {
	if !slices.Contains(consumers[c.Service], c) {
		return fmt.Errorf("consumer %s on %s is not declared for %q (events.Declare)", c.Durable, c.Subject, c.Service)
	}
	return nil
}

// ConsumersOf lists service's durable consumers, by name.
func ConsumersOf(service string) []Consumer {
	out := append([]Consumer(nil), consumers[service]...)
	sort.Slice(out, func(i, j int) bool { return out[i].Durable < out[j].Durable })
	return out
}
