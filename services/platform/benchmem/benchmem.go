// Package benchmem measures the peak live Go heap during a benchmark, so
// each `make bench` figure comes with its peak memory beside the baseline's
// (testing's -benchmem counts allocations, not what is held at once).
package benchmem

import (
	"runtime/metrics"
	"sync"
	"time"
)

// WatchHeap samples the live Go heap every millisecond until the returned
// function is called, which gives the peak in bytes.
func WatchHeap() func() float64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var mu sync.Mutex
	var peak uint64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			mu.Lock()
			peak = max(peak, sample[0].Value.Uint64())
			mu.Unlock()
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	return func() float64 {
		close(stop)
		<-done
		mu.Lock()
		defer mu.Unlock()
		return float64(peak)
	}
}
