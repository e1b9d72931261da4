package archtest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// protoDir is proto/uplift, seen from this package's folder.
var protoDir = filepath.Join("..", "..", "..", "proto", "uplift")

// rpcDecl is one rpc of a .proto file, its options block included (up to
// the closing brace at its indentation, or the semicolon of one without).
var rpcDecl = regexp.MustCompile(`(?ms)^  rpc (\w+)\(.*?(?:\) returns \([^)]*\);$|^  \}$)`)

// A read (an rpc named Get…, List… or Check…) says so in its proto with
// the standard `option idempotency_level = NO_SIDE_EFFECTS` (or IDEMPOTENT
// when a repeat changes nothing more): grpcclient retries exactly those on
// another copy when one goes away under them, so an unmarked read would
// fail during every rolling deploy where it could have been retried.
func TestReadsAreMarkedRepeatable(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(protoDir, "*", "v*", "*.proto"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no protos under %s: %v", protoDir, err)
	}
	var bad []string
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(filepath.Join(protoDir, ".."), path)
		for _, m := range rpcDecl.FindAllStringSubmatch(string(src), -1) {
			name, body := m[1], m[0]
			read := strings.HasPrefix(name, "Get") || strings.HasPrefix(name, "List") || strings.HasPrefix(name, "Check")
			if read && !strings.Contains(body, "idempotency_level = NO_SIDE_EFFECTS") && !strings.Contains(body, "idempotency_level = IDEMPOTENT") {
				bad = append(bad, filepath.ToSlash(rel)+": rpc "+name)
			}
		}
	}
	if len(bad) > 0 {
		t.Errorf("%d reads not marked `option idempotency_level = NO_SIDE_EFFECTS;` (or IDEMPOTENT):\n%s", len(bad), strings.Join(bad, "\n"))
	}
}
