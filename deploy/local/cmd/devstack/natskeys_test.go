package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNATSKeysKeepsKeysAcrossRuns: the Secrets written a second time hold
// the same seeds, and the operator mode adds each program's JWT to its
// Secret without changing a key.
func TestNATSKeysKeepsKeysAcrossRuns(t *testing.T) {
	dir := t.TempDir()
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if err := natsKeys(dir, "uplift", false, io.Discard); err != nil {
		t.Fatal(err)
	}
	first := read("nats-keys.yaml")
	if err := natsKeys(dir, "uplift", true, io.Discard); err != nil {
		t.Fatal(err)
	}
	second := read("nats-keys.yaml")
	for _, line := range strings.Split(first, "\n") {
		if strings.Contains(line, "NATS_NKEY_SEED:") && !strings.Contains(second, line) {
			t.Fatalf("a seed changed between runs: %q", line)
		}
	}
	if n := strings.Count(second, "NATS_USER_JWT:"); n != strings.Count(second, "NATS_NKEY_SEED:") || n == 0 {
		t.Fatalf("%d user JWTs for %d programs", n, strings.Count(second, "NATS_NKEY_SEED:"))
	}
	if auth := read("auth.conf"); !strings.HasPrefix(auth, "operator: ") {
		t.Fatalf("-jwt wrote no operator config: %.60q", auth)
	}
}
