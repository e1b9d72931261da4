package eventport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"uplift.dev/digest/internal/app"
	"uplift.dev/digest/internal/domain"
	"uplift.dev/platform/events"
)

// TestAwaitingRecipient: an owner's email whose address has not arrived
// is redelivered until the last allowed delivery, then dropped with an
// error in the log; other outcomes are result's.
func TestAwaitingRecipient(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	c := Consumers{Bus: events.Bus{Log: slog.New(slog.NewTextHandler(&log, nil))}}
	ctx := context.Background()
	noOne := fmt.Errorf("queue: %w", app.ErrNoRecipient)
	meta := func(delivered uint64) events.Meta {
		return events.Meta{ID: "m1", Subject: "uplift.categories.digest_requested", Delivered: delivered}
	}

	for _, d := range []uint64{1, noRecipientRetries - 1} {
		if err := c.awaitingRecipient(ctx, meta(d), noOne); !errors.Is(err, app.ErrNoRecipient) {
			t.Fatalf("delivery %d: %v, want ErrNoRecipient for a redelivery", d, err)
		}
	}
	if log.Len() != 0 {
		t.Fatalf("logged before the last delivery: %s", log.String())
	}
	if err := c.awaitingRecipient(ctx, meta(noRecipientRetries), noOne); err != nil {
		t.Fatalf("last delivery: %v, want the event dropped", err)
	}
	if !strings.Contains(log.String(), "unusable event dropped") {
		t.Fatalf("the drop was not logged: %q", log.String())
	}

	if err := c.awaitingRecipient(ctx, meta(1), nil); err != nil {
		t.Fatalf("queued: %v", err)
	}
	if err := c.awaitingRecipient(ctx, meta(1), domain.ErrInvalidAddress); err != nil {
		t.Fatalf("an unusable address is dropped at once, got %v", err)
	}
	if err := c.awaitingRecipient(ctx, meta(1), errors.New("db down")); err == nil {
		t.Fatal("a failure of the store must be redelivered")
	}
}
