// Package logging builds the one structured logger a binary uses: JSON lines
// on stderr, tagged with the service name, so every log line is searchable,
// and with the trace and span id of a line logged inside a traced context.
package logging

import (
	"io"
	"log/slog"
	"strings"
)

// New returns a JSON logger at the given level ("debug", "info", "warn",
// "error"; anything else means info) and makes it the default. A record
// logged with a context that holds a span gets "trace_id" and "span_id".
func New(w io.Writer, service, level string) *slog.Logger {
	var l slog.Level
	switch strings.ToLower(level) {
	case "debug":
		l = slog.LevelDebug
	case "warn":
		l = slog.LevelWarn
	case "error":
		l = slog.LevelError
	default:
		l = slog.LevelInfo
	}
	log := slog.New(traceHandler{slog.NewJSONHandler(w, &slog.HandlerOptions{Level: l})}).With("service", service)
	slog.SetDefault(log)
	return log
}
