package natsauth_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"uplift.dev/platform/events"
	"uplift.dev/platform/natsauth"
)

// TestRenderedConfigKeepsConsumersApart: on nats-server with the rendered
// configuration a service makes, reads, pulls from and acks its own durable
// consumer, and NATS refuses it another service's (the digest's, which
// sends password reset links), one nobody declared, its own pointed at a
// subject it does not read, and the replies another service receives.
func TestRenderedConfigKeepsConsumersApart(t *testing.T) {
	t.Parallel()
	url, k := startRendered(t)
	_, users := connectAs(t, url, k, "users")
	_, digest := connectAs(t, url, k, "digest")
	refused := &violations{}
	attackerNC, attacker := connectAs(t, url, k, "stores", nats.ErrorHandler(refused.record))
	// A refused request has no answer: each waits a second for none.
	short := func() context.Context {
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		t.Cleanup(cancel)
		return c
	}
	if _, err := users.Publish(short(), events.SubjectPasswordResetRequested, []byte("reset link")); err != nil {
		t.Fatal(err)
	}
	own := digestReset
	config := func(durable, subject string) jetstream.ConsumerConfig {
		return jetstream.ConsumerConfig{Durable: durable, FilterSubject: subject, AckPolicy: jetstream.AckExplicitPolicy}
	}
	stream := "$JS.API.CONSUMER.CREATE." + events.StreamName + "."
	for _, try := range []struct {
		what    string
		cfg     jetstream.ConsumerConfig
		subject string
	}{
		{"the digest's consumer", config(own.Durable, own.Subject), stream + own.Durable + "." + own.Subject},
		// Without a filter token: the form nats.go uses for several filters.
		{"the digest's consumer (no filter token)", jetstream.ConsumerConfig{Durable: own.Durable,
			FilterSubjects: []string{own.Subject}}, stream + own.Durable},
		{"an undeclared consumer", config("stores-resets", own.Subject), stream + "stores-resets." + own.Subject},
		{"its own consumer on another subject", config(storesUserDeleted.Durable, own.Subject),
			stream + storesUserDeleted.Durable + "." + own.Subject},
		{"its own consumer with no filter", jetstream.ConsumerConfig{Durable: storesUserDeleted.Durable},
			stream + storesUserDeleted.Durable},
	} {
		if _, err := attacker.CreateOrUpdateConsumer(short(), events.StreamName, try.cfg); err == nil {
			t.Errorf("stores made %s", try.what)
		}
		refused.await(t, try.subject)
	}

	cons, err := digest.CreateOrUpdateConsumer(short(), events.StreamName, config(own.Durable, own.Subject))
	if err != nil {
		t.Fatalf("the digest cannot make its consumer: %v", err)
	}
	if _, err := cons.Info(short()); err != nil {
		t.Fatalf("the digest cannot read its consumer: %v", err)
	}

	if _, err := attacker.Consumer(short(), events.StreamName, own.Durable); err == nil {
		t.Error("stores read the digest's consumer")
	}
	refused.await(t, "$JS.API.CONSUMER.INFO."+events.StreamName+"."+own.Durable)
	next := "$JS.API.CONSUMER.MSG.NEXT." + events.StreamName + "." + own.Durable
	if m, err := attackerNC.Request(next, []byte(`{"batch":1,"expires":500000000}`), time.Second); err == nil && len(m.Data) > 0 {
		t.Errorf("stores pulled the digest's event: %q", m.Data)
	}
	refused.await(t, next)
	ack := "$JS.ACK." + events.StreamName + "." + own.Durable + ".1.1.1.0.0"
	_ = attackerNC.Publish(ack, []byte("+ACK"))
	refused.await(t, ack)
	sub, err := attackerNC.SubscribeSync("_INBOX.>")
	if err == nil {
		_ = attackerNC.Flush()
		defer func() { _ = sub.Unsubscribe() }()
	}
	refused.await(t, "_INBOX.>")

	// The event is still the digest's, first delivery, pulled and acked.
	batch, err := cons.Fetch(1, jetstream.FetchMaxWait(2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	var pulled int
	for m := range batch.Messages() {
		pulled++
		if meta, _ := m.Metadata(); meta == nil || meta.NumDelivered != 1 {
			t.Errorf("the digest's event was delivered before: %+v", meta)
		}
		if err := m.DoubleAck(short()); err != nil {
			t.Fatalf("the digest cannot ack: %v", err)
		}
	}
	if pulled != 1 || batch.Error() != nil {
		t.Fatalf("the digest pulled %d events (%v), want 1", pulled, batch.Error())
	}
	if info, err := cons.Info(short()); err != nil || info.NumAckPending != 0 || info.AckFloor.Stream != 1 {
		t.Fatalf("the digest's ack did not count: %+v, %v", info, err)
	}
}

// TestEveryServiceMayRunItsConsumers: each service is granted exactly the
// consumer subjects of its declared consumers, and nothing on another's.
func TestEveryServiceMayRunItsConsumers(t *testing.T) {
	t.Parallel()
	for _, service := range natsauth.Programs() {
		allowed := natsauth.Permissions(service).Publish.Allow
		for _, other := range natsauth.Programs() {
			for _, c := range events.ConsumersOf(other) {
				for _, subject := range []string{
					"$JS.API.CONSUMER.CREATE." + events.StreamName + "." + c.Durable + "." + c.Subject,
					"$JS.API.CONSUMER.INFO." + events.StreamName + "." + c.Durable,
					"$JS.API.CONSUMER.MSG.NEXT." + events.StreamName + "." + c.Durable,
					"$JS.ACK." + events.StreamName + "." + c.Durable + ".1.2.3.4.0",
				} {
					mine := service == other || service == natsauth.Admin && strings.HasPrefix(subject, "$JS.API.")
					if got := matchesAny(allowed, subject); got != mine {
						t.Errorf("%s may publish %s: %v, want %v", service, subject, got, mine)
					}
				}
			}
		}
	}
}

func matchesAny(patterns []string, subject string) bool {
	for _, p := range patterns {
		if server.SubjectMatchesFilter(subject, p) {
			return true
		}
	}
	return false
}

// violations records the permission errors the server sends a connection.
type violations struct {
	mu   sync.Mutex
	errs []string
}

func (v *violations) record(_ *nats.Conn, _ *nats.Subscription, err error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.errs = append(v.errs, err.Error())
}

// await waits for the server's refusal of subject.
func (v *violations) await(t *testing.T, subject string) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		v.mu.Lock()
		for _, e := range v.errs {
			if strings.Contains(strings.ToLower(e), "permissions violation") && strings.Contains(e, `"`+subject+`"`) {
				v.mu.Unlock()
				return
			}
		}
		v.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	t.Errorf("NATS did not refuse %s; errors: %q", subject, v.errs)
}
