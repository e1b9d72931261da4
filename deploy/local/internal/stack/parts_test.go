package stack

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// Each part waits for the other to have started: started one after the
// other, neither would ever be ready.
func TestInfraPartsStartAtOnceAndAreSaidInOrder(t *testing.T) {
	t.Parallel()
	var said []string
	s := &Stack{Say: func(f string, a ...any) { said = append(said, fmt.Sprintf(f, a...)) }}
	a, b := make(chan struct{}), make(chan struct{})
	meet := func(mine, theirs chan struct{}, line string) func(context.Context) (string, error) {
		return func(ctx context.Context) (string, error) {
			close(mine)
			select {
			case <-theirs:
				return line, nil
			case <-time.After(10 * time.Second):
				return "", errors.New("the other part never started")
			}
		}
	}
	if err := s.startParts(context.Background(), []infraPart{{"first", meet(a, b, "one")}, {"second", meet(b, a, "two")}}); err != nil {
		t.Fatal(err)
	}
	if len(said) != 2 || !strings.HasPrefix(said[0], "first        one  [") || !strings.HasPrefix(said[1], "second       two  [") {
		t.Fatalf("said %q", said)
	}
}

func TestAFailedPartIsNamedAndStopsTheWait(t *testing.T) {
	t.Parallel()
	s := &Stack{}
	err := s.startParts(context.Background(), []infraPart{
		{"nats", func(context.Context) (string, error) { return "", errors.New("port taken") }},
		{"firebase", func(ctx context.Context) (string, error) { <-ctx.Done(); return "", ctx.Err() }},
	})
	if err == nil || !strings.Contains(err.Error(), "nats: port taken") {
		t.Fatalf("err %v", err)
	}
}
