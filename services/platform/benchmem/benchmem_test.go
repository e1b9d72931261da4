package benchmem

import (
	"testing"
	"time"
)

var keep [][]byte

// The peak covers memory held only while watched, then let go.
func TestWatchHeapSeesAPeakThatWasLetGo(t *testing.T) {
	peak := WatchHeap()
	for range 64 {
		keep = append(keep, make([]byte, 1<<20))
	}
	held := len(keep)
	time.Sleep(20 * time.Millisecond) // several samples while it is held
	keep = nil
	if got := peak(); got < float64(held)*(1<<20) {
		t.Fatalf("peak %.0f bytes, want at least the %d MiB held", got, held)
	}
}
