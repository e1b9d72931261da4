package events

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sort"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/protobuf/proto"

	"uplift.dev/platform/tracing"
)

// Listener is a subscription that every copy of a program holds to one
// subject, for what each copy must see itself: dropping an entry of its own
// cache. A durable Consumer hands each event to one copy of a service, so
// the others would keep serving what they cached. It is core NATS, not a
// JetStream consumer: nothing is stored for a copy that is away, and none is
// needed, since an event missed while disconnected costs no more than the
// cache's own short lifetime, which bounds every entry anyway. Listeners
// are declared like consumers, each program's in its own package bus, so
// natsauth grants each program the subscriptions it makes and no others.
type Listener struct {
	Service, Subject string
}

var listeners = map[string][]Listener{}

// DeclareListener adds service's listener on subject to the table; see
// Declare.
func DeclareListener(service, subject string) Listener {
	if PublishersOf(subject) == nil {
		panic(fmt.Sprintf("events: %s listens to %s, which no service may publish (events.Publishers)", service, subject))
	}
	l := Listener{Service: service, Subject: subject}
	listeners[service] = append(listeners[service], l)
	return l
}

// ListenersOf lists service's listeners, by subject.
func ListenersOf(service string) []Listener {
	out := append([]Listener(nil), listeners[service]...)
	sort.Slice(out, func(i, j int) bool { return out[i].Subject < out[j].Subject })
	return out
}

// Listen returns a worker that holds l's subscription on nc until its
// context ends. Each message's sender is checked with trust (nil believes
// every sender: tests on plain NATS), its payload decoded into a fresh E and
// h called; a refused or unreadable message is logged and dropped. The
// worker returns when ctx ends, or with the error that kept it from
// subscribing.
func Listen[E any, P protoPtr[E]](nc *nats.Conn, trust *Trust, log *slog.Logger, l Listener, h func(ctx context.Context, ev P)) func(context.Context) error {
	return func(ctx context.Context) error {
		if !slices.Contains(listeners[l.Service], l) {
			return fmt.Errorf("listener on %s is not declared for %q (events.DeclareListener)", l.Subject, l.Service)
		}
		sub, err := nc.Subscribe(l.Subject, func(m *nats.Msg) {
			id := m.Header.Get(jetstream.MsgIDHeader)
			if _, err := trust.Check(m.Subject, id, m.Header, m.Data); err != nil {
				log.Warn("events: refused", "subject", m.Subject, "id", id, "err", err)
				return
			}
			// Every copy hears it: a consumer span each, in the trace of
			// the request that wrote the event.
			ctx, span := tracing.Tracer().Start(tracing.Extract(ctx, m.Header), "listen "+m.Subject,
				trace.WithSpanKind(trace.SpanKindConsumer), trace.WithAttributes(messaging(m.Subject, id)...))
			defer span.End()
			ev := P(new(E))
			if err := proto.Unmarshal(m.Data, ev); err != nil {
				log.ErrorContext(ctx, "unreadable event dropped", "subject", m.Subject, "id", id, "err", err)
				return
			}
			h(ctx, ev)
		})
		if err != nil {
			return fmt.Errorf("events: listen on %s: %w", l.Subject, err)
		}
		<-ctx.Done()
		_ = sub.Unsubscribe()
		return nil
	}
}
