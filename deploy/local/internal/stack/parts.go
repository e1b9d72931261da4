package stack

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/sync/errgroup"
)

// infraPart is one piece of the stack's infrastructure: start starts it,
// waits until it serves and returns the line the banner says of it.
type infraPart struct {
	name  string
	start func(context.Context) (string, error)
}

// startParts starts every part at once and says each one's line and how
// long it took to be ready, in the parts' order; the first failure stops
// the wait for the others (Stop ends what did start).
func (s *Stack) startParts(ctx context.Context, parts []infraPart) error {
	lines := make([]string, len(parts))
	took := make([]time.Duration, len(parts))
	g, ctx := errgroup.WithContext(ctx)
	for i, p := range parts {
		g.Go(func() error {
			t0 := time.Now()
			line, err := p.start(ctx)
			if err != nil {
				return fmt.Errorf("%s: %w", p.name, err)
			}
			lines[i], took[i] = line, time.Since(t0)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for i, p := range parts {
		s.say("%-12s %s  [%.1f s]", p.name, lines[i], took[i].Seconds())
	}
	return nil
}
