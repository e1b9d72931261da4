//go:build !linux

package memtrim

// dropExecutable drops nothing where there is no /proc/self/smaps.
func dropExecutable() (int64, error) { return 0, nil }
