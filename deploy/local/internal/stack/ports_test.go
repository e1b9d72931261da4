package stack

import (
	"fmt"
	"path/filepath"
	"testing"
)

// allPorts lists every port of p, named.
func allPorts(p Ports) map[string]int {
	out := map[string]int{
		"postgres": p.Postgres, "nats": p.NATS, "auth emulator": p.AuthEmulator, "emulator hub": p.EmulatorHub,
		"emulator logging": p.EmulatorLogging, "stripe http": p.StripeHTTP, "stripe https": p.StripeHTTPS,
		"smtp": p.SMTP, "smtp web": p.SMTPWeb, "smtp web internal": p.SMTPWebInternal, "shopify sim": p.ShopifySim, "woo sim": p.WooSim, "ga4 sim": p.GA4Sim,
		"demo store": p.DemoStore, "gateway": p.Gateway, "gateway metrics": p.GatewayMetrics,
		"test checkout": p.TestCheckout, "studio worker": p.StudioWorker, "review worker": p.ReviewWorker,
		"jaeger otlp": p.JaegerOTLP, "jaeger query": p.JaegerQuery, "jaeger query grpc": p.JaegerQueryGRPC,
	}
	for i, remote := range []string{"web", "home", "analytics", "connections", "account"} {
		out[remote] = p.Web + i
	}
	for name, port := range p.Services {
		out[name] = port
		out[name+" metrics"] = port + 100
	}
	return out
}

// Stacks on every allowed offset can run at once: no port is used twice.
func TestShiftedStacksNeverShareAPort(t *testing.T) {
	owner := map[int]string{}
	for offset := 0; offset < MaxPortOffset; offset += 10 {
		ports, err := DefaultPorts.Shift(offset)
		if err != nil {
			t.Fatalf("offset %d: %v", offset, err)
		}
		for name, port := range allPorts(ports) {
			who := fmt.Sprintf("%s at offset %d", name, offset)
			if prev, taken := owner[port]; taken {
				t.Errorf("port %d is both %s and %s", port, prev, who)
			}
			owner[port] = who
		}
	}
	if got := len(owner); got != len(allPorts(DefaultPorts))*MaxPortOffset/10 {
		t.Errorf("%d distinct ports, want every port of every stack", got)
	}
}

func TestShiftMovesEveryPortAndRefusesOthers(t *testing.T) {
	shifted, err := DefaultPorts.Shift(30)
	if err != nil {
		t.Fatal(err)
	}
	before, after := allPorts(DefaultPorts), allPorts(shifted)
	for name, port := range before {
		if after[name] != port+30 {
			t.Errorf("%s: %d, want %d", name, after[name], port+30)
		}
	}
	if DefaultPorts.Services["users"] != 9001 {
		t.Error("Shift changed DefaultPorts")
	}
	for _, bad := range []int{-10, 5, MaxPortOffset, 1000} {
		if _, err := DefaultPorts.Shift(bad); err == nil {
			t.Errorf("offset %d accepted", bad)
		}
	}
}

func TestShiftedStackKeepsItsStateApart(t *testing.T) {
	root := t.TempDir()
	plain, err := New(root, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	moved, err := New(root, 20, nil)
	if err != nil {
		t.Fatal(err)
	}
	if plain.StateDir != filepath.Join(root, ".local") || moved.StateDir != filepath.Join(root, ".local", "stack-20") {
		t.Errorf("state dirs %q and %q", plain.StateDir, moved.StateDir)
	}
	if moved.Ports.Web != 3020 || moved.remoteURL(1) != "http://localhost:3021/remoteEntry.js" {
		t.Errorf("web %d, home remote %s", moved.Ports.Web, moved.remoteURL(1))
	}
}
