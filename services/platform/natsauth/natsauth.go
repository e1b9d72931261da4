// Package natsauth gives each Uplift program its own NATS identity (a user
// nkey) with publish and subscribe permissions cut to what it does, built
// from the one table of who publishes what (events.Publishers). The local
// stack and tests start an embedded server with these users; the cluster's
// nats.conf and Secrets are written from the same keyring (Render).
package natsauth

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"

	"uplift.dev/platform/events"
	"uplift.dev/platform/ratelimit"
)

// Programs are the programs that talk to NATS: every service that may
// publish an event (events.Publishers) or declared a consumer or a
// listener (each program's package bus, linked into the program that asks:
// the local stack links them all), the gateway, which keeps its rate
// limits in a key-value bucket, and the admin that sets the streams up.
func Programs() []string {
	seen := map[string]bool{Gateway: true, Admin: true}
	for _, senders := range events.Publishers {
		for _, s := range senders {
			seen[s] = true
		}
	}
	for _, s := range events.Declared() {
		seen[s] = true
	}
	return slices.Sorted(maps.Keys(seen))
}

// Gateway is the one program that is not a JetStream consumer.
const Gateway = "gateway"

// Admin is the identity that manages the streams (SetUp): the local stack,
// and the cluster's nats-setup Job. No service gets its rights, so a
// service cannot change the stream's retention or duplicate window, nor
// create or delete a stream.
const Admin = "admin"

// consumerAPI is what a JetStream client needs on top of its own subjects
// to publish into the Uplift stream and consume from it: the stream's
// info, and for each of its own durable consumers (events.ConsumersOf)
// making it on its one subject, looking at it, pulling from it and acking
// its messages. These are the subjects nats.go's jetstream package uses
// (CreateOrUpdateConsumer with a FilterSubject, Consumer.Info, Consume and
// Fetch, Msg.Ack); the consumer's name is a token of each, so a service
// cannot make, read, pull from or ack another's consumer, nor point its own
// at a subject it does not read (CONSUMER.CREATE without the filter token
// would let it). Stream management ($JS.API.STREAM.CREATE, UPDATE, DELETE,
// PURGE, message reads and deletion) and deleting consumers are the admin's
// alone.
func consumerAPI(service string) []string {
	api := []string{"$JS.API.STREAM.INFO." + events.StreamName}
	for _, c := range events.ConsumersOf(service) {
		on := events.StreamName + "." + c.Durable
		api = append(api,
			"$JS.API.CONSUMER.CREATE."+on+"."+c.Subject,
			"$JS.API.CONSUMER.INFO."+on,
			"$JS.API.CONSUMER.MSG.NEXT."+on,
			"$JS.ACK."+on+".>",
		)
	}
	return api
}

// Permissions is what service may publish and subscribe to. Each program
// receives replies only on its own inbox (events.InboxPrefix): with a
// shared _INBOX.> one service could read the events another pulls.
func Permissions(service string) *server.Permissions {
	inbox := &server.SubjectPermission{Allow: []string{events.InboxPrefix(service) + ".>"}}
	switch service {
	case Admin:
		return &server.Permissions{
			Publish:   &server.SubjectPermission{Allow: []string{"$JS.API.>"}},
			Subscribe: inbox,
		}
	case Gateway:
		// Each live stream subscribes to its own category's subject; the
		// gateway serves every category, so it may listen to all of them,
		// and to nothing else on the bus.
		return &server.Permissions{
			Publish:   &server.SubjectPermission{Allow: ratelimit.ClientSubjects()},
			Subscribe: &server.SubjectPermission{Allow: append(append([]string{events.SubjectReportUpdated}, listened(service)...), inbox.Allow...)},
		}
	}
	return &server.Permissions{
		Publish:   &server.SubjectPermission{Allow: append(events.SubjectsOf(service), consumerAPI(service)...)},
		Subscribe: &server.SubjectPermission{Allow: append(listened(service), inbox.Allow...)},
	}
}

// listened is the subjects of service's listeners (events.ListenersOf),
// which every copy subscribes to with core NATS.
func listened(service string) []string {
	var out []string
	for _, l := range events.ListenersOf(service) {
		out = append(out, l.Subject)
	}
	return out
}

// SetUp makes or updates what the programs use and may not make
// themselves: the Uplift stream (kept on replicas servers) and the
// gateway's rate-limit buckets. js must be the admin's.
func SetUp(ctx context.Context, js jetstream.JetStream, replicas int) error {
	if err := events.EnsureStream(ctx, js, replicas); err != nil {
		return err
	}
	return ratelimit.EnsureBuckets(ctx, js, replicas)
}

// ConnectAndSetUp signs in to NATS at url as the admin with seed (and,
// on an operator-mode NATS, its user JWT; "" otherwise) and sets up the
// streams (SetUp).
func ConnectAndSetUp(ctx context.Context, url string, seed []byte, userJWT string, replicas int, opts ...nats.Option) error {
	signer, err := events.NewSigner(Admin, seed)
	if err != nil {
		return fmt.Errorf("admin key: %w", err)
	}
	if userJWT != "" {
		if err := signer.UseJWT(userJWT); err != nil {
			return fmt.Errorf("admin JWT: %w", err)
		}
	}
	nc, err := nats.Connect(url, append([]nats.Option{nats.Name("nats-setup"), signer.NATSOption()}, opts...)...)
	if err != nil {
		return fmt.Errorf("nats: connect %s: %w", url, err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	return SetUp(ctx, js, replicas)
}

// Keyring holds one user nkey seed per program: made fresh for a local
// stack or a test (NewKeyring), kept in a folder outside the repository
// for a cluster (LoadKeyring).
type Keyring struct {
	seeds map[string][]byte
}

// NewKeyring makes a key for each of services.
func NewKeyring(services ...string) (*Keyring, error) {
	k := &Keyring{seeds: map[string][]byte{}}
	for _, s := range services {
		kp, err := nkeys.CreateUser()
		if err != nil {
			return nil, fmt.Errorf("nkey for %s: %w", s, err)
		}
		seed, err := kp.Seed()
		if err != nil {
			return nil, err
		}
		k.seeds[s] = seed
	}
	return k, nil
}

// Seed is service's secret seed (NATS_NKEY_SEED); nil if it has none.
func (k *Keyring) Seed(service string) []byte { return k.seeds[service] }

// PublicKey is service's public key.
func (k *Keyring) PublicKey(service string) string {
	kp, err := nkeys.FromSeed(k.seeds[service])
	if err != nil {
		return ""
	}
	pub, _ := kp.PublicKey()
	return pub
}

func (k *Keyring) names() []string { return slices.Sorted(maps.Keys(k.seeds)) }

// SenderKeys is NATS_SENDER_KEYS: every publisher's public key, which each
// consumer checks signatures against.
func (k *Keyring) SenderKeys() string {
	var parts []string
	for _, s := range k.names() {
		if s != Gateway && s != Admin {
			parts = append(parts, s+"="+k.PublicKey(s))
		}
	}
	return strings.Join(parts, ",")
}

// Users are the embedded server's users (server.Options.Nkeys). With them
// set, a connection without one of these keys is refused.
func (k *Keyring) Users() []*server.NkeyUser {
	var out []*server.NkeyUser
	for _, s := range k.names() {
		out = append(out, &server.NkeyUser{Nkey: k.PublicKey(s), Permissions: Permissions(s)})
	}
	return out
}

// Render writes the authorization block of a nats-server configuration
// for the keyring's users, for the cluster's nats.conf.
func (k *Keyring) Render() string {
	var b strings.Builder
	b.WriteString("authorization {\n  users = [\n")
	for _, s := range k.names() {
		p := Permissions(s)
		fmt.Fprintf(&b, "    # %s\n    { nkey: %s, permissions: {\n", s, k.PublicKey(s))
		fmt.Fprintf(&b, "        publish: { %s }\n", rules(p.Publish))
		fmt.Fprintf(&b, "        subscribe: { %s }\n      } }\n", rules(p.Subscribe))
	}
	b.WriteString("  ]\n}\n")
	return b.String()
}

// rules renders a permission's allow and deny lists; an empty allow list
// is left out, since nats-server reads it as "allow everything".
func rules(p *server.SubjectPermission) string {
	var parts []string
	if len(p.Allow) > 0 {
		parts = append(parts, "allow: "+list(p.Allow))
	}
	if len(p.Deny) > 0 {
		parts = append(parts, "deny: "+list(p.Deny))
	}
	return strings.Join(parts, ", ")
}

func list(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = `"` + x + `"`
	}
	return "[" + strings.Join(q, ", ") + "]"
}
