package program

import (
	"strings"
	"testing"

	"uplift.dev/platform/natsauth"
)

// TestNATSIdentityRequiredOutsideLocalMode: a service in production (no
// Auth emulator) never runs on NATS without its own key and the senders'
// keys; locally it may (a test's plain NATS).
func TestNATSIdentityRequiredOutsideLocalMode(t *testing.T) {
	t.Parallel()
	k, err := natsauth.NewKeyring("users", "billing")
	if err != nil {
		t.Fatal(err)
	}
	full := NATS{NATSNKeySeed: string(k.Seed("users")), NATSSenderKeys: k.SenderKeys()}
	if s, tr, err := full.identity("users", false); err != nil || s == nil || tr == nil {
		t.Fatalf("full settings: %v %v %v", s, tr, err)
	}
	for _, n := range []NATS{{}, {NATSNKeySeed: full.NATSNKeySeed}, {NATSSenderKeys: full.NATSSenderKeys}} {
		if _, _, err := n.identity("users", false); err == nil || !strings.Contains(err.Error(), "NATS_NKEY_SEED") {
			t.Fatalf("production without keys: %v", err)
		}
		if _, _, err := n.identity("users", true); err != nil {
			t.Fatalf("local mode: %v", err)
		}
	}
	bad := full
	bad.NATSNKeySeed = "SUnot-a-seed"
	if _, _, err := bad.identity("users", false); err == nil {
		t.Fatal("a bad seed was accepted")
	}
}
