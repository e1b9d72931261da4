package auth

import "time"

// SetCacheClock sets c's clock, for the external tests on a fixed clock.
func SetCacheClock(c *Cache, now func() time.Time) { c.now = now }
