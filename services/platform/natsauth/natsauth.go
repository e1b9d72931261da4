// Package natsauth gives each Uplift program its own NATS identity (a user
// nkey) with publish and subscribe permissions cut to what it does, built
// from the one table of who publishes what (events.Publishers). The local
// stack and tests start an embedded server with these users; the cluster's
// nats.conf and Secrets are written from the same keyring (Render).
package natsauth

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"

	"uplift.dev/platform/events"
)

// Services are the programs that talk to NATS: the six services publish and
// consume through JetStream; the gateway only listens to report events.
var Services = []string{"users", "categories", "billing", "digest", "stores", "studio", "gateway"}

// Gateway is the one program that is not a JetStream consumer.
const Gateway = "gateway"

// jsAPI is what a JetStream client needs on top of its own subjects: the
// JetStream API (stream and consumer set-up, pulls), acks on the Uplift
// stream, and replies on its inbox. Deleting or purging the stream or its
// messages is left to an operator.
var (
	jsPublish = []string{"$JS.API.>", "$JS.ACK." + events.StreamName + ".>"}
	jsDeny    = []string{"$JS.API.STREAM.DELETE.>", "$JS.API.STREAM.PURGE.>", "$JS.API.STREAM.MSG.DELETE.>"}
)

// Permissions is what service may publish and subscribe to.
func Permissions(service string) *server.Permissions {
	if service == Gateway {
		return &server.Permissions{
			Publish:   &server.SubjectPermission{Deny: []string{">"}},
			Subscribe: &server.SubjectPermission{Allow: []string{events.SubjectReportUpdated}},
		}
	}
	return &server.Permissions{
		Publish: &server.SubjectPermission{
			Allow: append(events.SubjectsOf(service), jsPublish...),
			Deny:  slices.Clone(jsDeny),
		},
		Subscribe: &server.SubjectPermission{Allow: []string{"_INBOX.>"}},
	}
}

// Keyring holds one user nkey seed per program. It is made fresh when a
// stack starts (NewKeyring) and never written to the repository.
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
		if s != Gateway {
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
		fmt.Fprintf(&b, "        publish: { allow: %s, deny: %s }\n", list(p.Publish.Allow), list(p.Publish.Deny))
		fmt.Fprintf(&b, "        subscribe: { allow: %s }\n      } }\n", list(p.Subscribe.Allow))
	}
	b.WriteString("  ]\n}\n")
	return b.String()
}

func list(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = `"` + x + `"`
	}
	return "[" + strings.Join(q, ", ") + "]"
}
