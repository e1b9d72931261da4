// Package clock is how Uplift's app layers read the time, so a test (or a
// stack run as of another day) can set it: the wall clock in production, a
// fixed, offset or hand-moved one elsewhere.
package clock

import (
	"sync"
	"time"
)

// Clock tells the time. The zero value is the wall clock, and any
// func() time.Time (time.Now, a test's closure) is one.
type Clock func() time.Time

// Now is the clock's time; a nil Clock reads the wall clock.
func (c Clock) Now() time.Time {
	if c == nil {
		return time.Now()
	}
	return c()
}

// Real is the wall clock.
var Real Clock = time.Now

// Fixed always says t.
func Fixed(t time.Time) Clock { return func() time.Time { return t } }

// Offset is the wall clock moved by d: time passes, as of another moment.
func Offset(d time.Duration) Clock { return func() time.Time { return time.Now().Add(d) } }

// Manual is a clock a test sets and moves by hand, safe to read from
// other goroutines (replicas, consumers) while the test moves it.
type Manual struct {
	mu sync.Mutex
	t  time.Time
}

// NewManual is a Manual clock at t.
func NewManual(t time.Time) *Manual { return &Manual{t: t} }

// Now is the clock's time.
func (m *Manual) Now() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.t
}

// Set moves the clock to t.
func (m *Manual) Set(t time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.t = t
}

// Advance moves the clock on by d.
func (m *Manual) Advance(d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.t = m.t.Add(d)
}

// Clock is m as a Clock.
func (m *Manual) Clock() Clock { return m.Now }
