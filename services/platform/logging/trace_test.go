package logging

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"go.opentelemetry.io/otel/trace"
)

// A line logged inside a span carries its ids, also through With and a
// group; one logged without a span carries none.
func TestTraceIDsInLogLines(t *testing.T) {
	defer slog.SetDefault(slog.Default())
	var buf bytes.Buffer
	log := New(&buf, "users", "info").With("request", "r1")
	tid, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	ctx := trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled, Remote: true}))

	log.InfoContext(ctx, "traced")
	log.WithGroup("g").InfoContext(ctx, "grouped")
	log.Info("untraced")

	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	if len(lines) != 3 {
		t.Fatalf("want 3 lines, got %d: %s", len(lines), buf.String())
	}
	var first, grouped, last map[string]any
	for i, dst := range []*map[string]any{&first, &grouped, &last} {
		if err := json.Unmarshal(lines[i], dst); err != nil {
			t.Fatal(err)
		}
	}
	if first["trace_id"] != tid.String() || first["span_id"] != sid.String() || first["service"] != "users" {
		t.Errorf("traced line: %v", first)
	}
	if g, _ := grouped["g"].(map[string]any); g["trace_id"] != tid.String() {
		t.Errorf("grouped line: %v", grouped)
	}
	if _, ok := last["trace_id"]; ok {
		t.Errorf("untraced line has a trace id: %v", last)
	}
}
