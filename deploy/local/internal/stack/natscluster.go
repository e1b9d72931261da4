package stack

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"uplift.dev/platform/natsauth"
)

// NATSNodeCommand is the devstack subcommand that runs one node of the
// stack's NATS cluster from its configuration file.
const NATSNodeCommand = "nats-node"

// startNATSCluster runs NATS as a cluster of nodes, each its own supervised
// process (this binary's nats-node) on 127.0.0.(i+1), with JetStream keeping
// the stream on all of them (R3 with three): a node can be killed and comes
// back, as a pod does, while the others keep the bus. Clients are given
// every node's address.
func (s *Stack) startNATSCluster(ctx context.Context, nodes int) (string, error) {
	keys, err := natsauth.NewKeyring(natsauth.Programs()...)
	if err != nil {
		return "", err
	}
	s.natsKeys = keys
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(s.StateDir, "nats-cluster")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	port := s.Ports.NATS
	var routes, clients []string
	for i := range nodes {
		routes = append(routes, "nats-route://"+copyAddr(i, port+1))
		clients = append(clients, "nats://"+copyAddr(i, port))
	}
	for i := range nodes {
		for _, a := range []string{copyAddr(i, port), copyAddr(i, port+1)} {
			if err := portFree(a); err != nil {
				return "", err
			}
		}
		name := copyName("nats", i)
		conf := fmt.Sprintf("server_name: %s\nlisten: %q\njetstream { store_dir: %q }\n"+
			"cluster { name: uplift, listen: %q, routes: [%s] }\n%s",
			name, copyAddr(i, port), filepath.Join(dir, name), copyAddr(i, port+1),
			strings.Join(quoted(routes), ", "), keys.Render())
		path := filepath.Join(dir, name+".conf")
		if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
			return "", err
		}
		p, err := s.start(name, nil, s.Root, self, NATSNodeCommand, path)
		if err != nil {
			return "", err
		}
		if err := s.waitFor(ctx, p, name, 20*time.Second, tcpUp(copyAddr(i, port))); err != nil {
			return "", err
		}
	}
	url := strings.Join(clients, ",")
	// The stream needs a JetStream leader, elected a few seconds after the
	// nodes meet.
	deadline := time.Now().Add(60 * time.Second)
	for {
		setUpCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err := natsauth.ConnectAndSetUp(setUpCtx, url, keys.Seed(natsauth.Admin), "", nodes)
		cancel()
		if err == nil {
			return url, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return "", fmt.Errorf("nats cluster: set up: %w", err)
		}
		time.Sleep(time.Second)
	}
}

func quoted(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strconv.Quote(x)
	}
	return out
}

// RunNATSNode serves one cluster node from its configuration file until ctx
// ends (devstack nats-node FILE).
func RunNATSNode(ctx context.Context, confPath string) error {
	opts, err := server.ProcessConfigFile(confPath)
	if err != nil {
		return err
	}
	opts.NoSigs = true
	ns, err := server.NewServer(opts)
	if err != nil {
		return err
	}
	ns.ConfigureLogger()
	go ns.Start()
	if !ns.ReadyForConnections(20 * time.Second) {
		return fmt.Errorf("nats node %s did not start", opts.ServerName)
	}
	<-ctx.Done()
	ns.Shutdown()
	ns.WaitForShutdown()
	return nil
}
