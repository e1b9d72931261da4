// Command natssetup makes or updates the NATS streams the Uplift programs
// use and may not make themselves (natsauth.SetUp): the cluster's
// nats-setup Job runs it as the admin identity on every deploy.
package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"

	"uplift.dev/platform/natsauth"
	"uplift.dev/platform/program"
)

type settings struct {
	NATSURL string `env:"NATS_URL" required:"true"`
	// NATSNKeySeed is the admin's nkey seed (the nats-key-admin Secret).
	NATSNKeySeed string `env:"NATS_NKEY_SEED" required:"true" secret:"true"`
	// NATSUserJWT is the admin's user JWT on an operator-mode NATS
	// (`devstack nats-keys -jwt`, the same Secret).
	NATSUserJWT string `env:"NATS_USER_JWT"`
	NATSCAFile  string `env:"NATS_CA_FILE"`
	// StreamReplicas is how many servers keep each stream (3 in the
	// cluster, 1 on a single server).
	StreamReplicas int    `env:"NATS_STREAM_REPLICAS" default:"1"`
	LogLevel       string `env:"LOG_LEVEL" default:"info"`
}

func main() {
	var s settings
	program.Command("natssetup", &s, &s.LogLevel, func(ctx context.Context, log *slog.Logger) error {
		var opts []nats.Option
		if s.NATSCAFile != "" {
			opts = append(opts, nats.RootCAs(s.NATSCAFile))
		}
		// The Job is retried by Kubernetes; one try waits for a cluster that
		// is still electing its JetStream leader.
		ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		if err := natsauth.ConnectAndSetUp(ctx, s.NATSURL, []byte(s.NATSNKeySeed), s.NATSUserJWT, s.StreamReplicas, opts...); err != nil {
			return err
		}
		log.Info("streams set up", "replicas", s.StreamReplicas)
		return nil
	})
}
