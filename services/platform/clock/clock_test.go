package clock

import (
	"sync"
	"testing"
	"time"
)

func TestClocks(t *testing.T) {
	t.Parallel()
	var zero Clock
	if d := time.Since(zero.Now()); d < 0 || d > time.Second {
		t.Fatalf("the zero Clock is %v off the wall clock", d)
	}
	if d := time.Since(Real.Now()); d < 0 || d > time.Second {
		t.Fatalf("Real is %v off the wall clock", d)
	}
	// A fixed instant in a zone with a DST change the next day.
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 7, 12, 0, 0, 0, ny)
	if got := Fixed(at).Now(); !got.Equal(at) || got.Location() != ny {
		t.Fatalf("Fixed: %v", got)
	}
	ahead := Offset(72 * time.Hour).Now()
	if d := ahead.Sub(time.Now()); d < 72*time.Hour-time.Second || d > 72*time.Hour {
		t.Fatalf("Offset(72h) is %v ahead", d)
	}
}

// TestManualAcrossGoroutinesAndDST: replicas read a Manual clock while the
// test moves it; a day's Advance across New York's spring change is 24
// hours, which the wall clock there shows as 13:00 the next day.
func TestManualAcrossGoroutinesAndDST(t *testing.T) {
	t.Parallel()
	ny, _ := time.LoadLocation("America/New_York")
	m := NewManual(time.Date(2026, 3, 7, 12, 0, 0, 0, ny))
	c := m.Clock()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 100 {
				_ = c.Now()
			}
		})
	}
	for range 24 {
		m.Advance(time.Hour)
	}
	wg.Wait()
	if got := c.Now().In(ny); got.Day() != 8 || got.Hour() != 13 {
		t.Fatalf("24 hours after Saturday 12:00 in New York: %v, want Sunday 13:00 (EDT)", got)
	}
	m.Set(time.Date(2026, 11, 1, 0, 30, 0, 0, time.UTC))
	if got := c.Now(); got.Month() != time.November || got.Minute() != 30 {
		t.Fatalf("Set: %v", got)
	}
}
