package program

import (
	"context"
	"fmt"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"uplift.dev/platform/events"
)

// NATS is how a program reaches the event bus: the settings every service
// reads (Base embeds them) and so does a worker that is a second process of
// a service on the bus (the review worker).
type NATS struct {
	NATSURL string `env:"NATS_URL" required:"true"`
	// NATSNKeySeed is the service's own NATS user nkey seed ("SU..."): it
	// signs in to NATS with it and signs every event it publishes.
	NATSNKeySeed string `env:"NATS_NKEY_SEED" secret:"true"`
	// NATSSenderKeys lists every publisher's public nkey
	// ("users=U...,billing=U..."); consumers refuse events not signed by a
	// service that may publish their subject (events.Publishers).
	NATSSenderKeys string `env:"NATS_SENDER_KEYS"`
	// NATSUserJWT is the program's user JWT on an operator-mode NATS
	// (`devstack nats-keys -jwt`), for the key in NATS_NKEY_SEED; unset
	// on a NATS whose configuration lists the keys (auth.conf).
	NATSUserJWT string `env:"NATS_USER_JWT"`
	// NATSCAFile is the CA that signed the NATS servers' certificates, for
	// a tls:// NATS_URL with a private CA.
	NATSCAFile string `env:"NATS_CA_FILE"`
}

// Bus is a program's connection to the event bus.
type Bus struct {
	NC *nats.Conn
	JS jetstream.JetStream
	// Signer signs what the program publishes as its service; Trust says
	// whose events to believe. Both nil on an anonymous connection.
	Signer *events.Signer
	Trust  *events.Trust
}

// Connect signs in to NATS as service (whose key signs what the program
// publishes), naming the connection clientName, and finds the stream. With
// no keys set it connects anonymously if anonymous allows it (local mode,
// a test's plain NATS) and fails otherwise: a program never runs on a bus
// where anyone may publish anything.
func (n NATS) Connect(ctx context.Context, clientName, service string, anonymous bool) (Bus, error) {
	signer, trust, err := n.identity(service, anonymous)
	if err != nil {
		return Bus{}, err
	}
	var opts []nats.Option
	if signer != nil {
		opts = append(opts, signer.NATSOption())
	}
	if n.NATSCAFile != "" {
		opts = append(opts, nats.RootCAs(n.NATSCAFile))
	}
	nc, js, err := events.Connect(ctx, n.NATSURL, clientName, opts...)
	if err != nil {
		return Bus{}, err
	}
	return Bus{NC: nc, JS: js, Signer: signer, Trust: trust}, nil
}

// identity reads the program's NATS credentials.
func (n NATS) identity(service string, anonymous bool) (*events.Signer, *events.Trust, error) {
	if n.NATSNKeySeed == "" || n.NATSSenderKeys == "" {
		if anonymous {
			return nil, nil, nil
		}
		return nil, nil, fmt.Errorf("NATS_NKEY_SEED and NATS_SENDER_KEYS (%s's key): required outside local mode", service)
	}
	signer, err := events.NewSigner(service, []byte(n.NATSNKeySeed))
	if err != nil {
		return nil, nil, fmt.Errorf("NATS_NKEY_SEED: %w", err)
	}
	if n.NATSUserJWT != "" {
		if err := signer.UseJWT(n.NATSUserJWT); err != nil {
			return nil, nil, fmt.Errorf("NATS_USER_JWT: %w", err)
		}
	}
	trust, err := events.ParseTrust(n.NATSSenderKeys)
	if err != nil {
		return nil, nil, fmt.Errorf("NATS_SENDER_KEYS: %w", err)
	}
	return signer, trust, nil
}
