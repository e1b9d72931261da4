// Package memtrim gives back, once a program has started, the memory its
// start-up left mapped but idle: the Go heap's freed pages
// (debug.FreeOSMemory) and the pages of its own executable's code and
// read-only data. On the kernels we run on, page-cache folios map whole
// into a process on first touch, so an idle service showed 30–40 MB of its
// 60–85 MB binary resident (RssFile) beside 7–11 MB of heap; start-up
// touches most of that once (package inits, migrations, the first
// connections) and never again. Dropped pages are clean and come back from
// the page cache when next run, as after the kernel reclaims them itself
// under memory pressure.
package memtrim

import (
	"context"
	"log/slog"
	"runtime/debug"
	"time"
)

// AfterStart trims at each of the delays after it is called (in order),
// until ctx ends, and logs what it gave back. Programs call it as they
// start: the first trim follows start-up, a later one catches a slow start.
func AfterStart(ctx context.Context, log *slog.Logger, delays ...time.Duration) {
	go func() {
		start := time.Now()
		for _, d := range delays {
			t := time.NewTimer(time.Until(start.Add(d)))
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
			dropped, err := Trim()
			if err != nil {
				log.Warn("memtrim: executable pages not dropped", "err", err)
				return
			}
			log.Debug("memtrim: idle memory given back", "executable_kb", dropped>>10)
		}
	}()
}

// Trim returns the heap's free pages to the system and drops this
// process's resident pages of its executable's read-only mappings (code,
// read-only data) that hold no private changes. It returns how many bytes
// of the executable were resident before.
func Trim() (int64, error) {
	debug.FreeOSMemory()
	return dropExecutable()
}
