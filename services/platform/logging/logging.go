// Package logging builds the one structured logger a binary uses: JSON lines
// on stderr, tagged with the service name, so every log line is searchable.
package logging

import (
	"io"
	"log/slog"
	"strings"
)

// New returns a JSON logger at the given level ("debug", "info", "warn",
// "error"; anything else means info) and makes it the default.
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
	log := slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: l})).With("service", service)
	slog.SetDefault(log)
	return log
}
