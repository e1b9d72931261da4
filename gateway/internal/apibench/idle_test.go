package apibench

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// The line sums every program's resident set, read from /proc by the
// stack's pid files.
func TestIdleMemorySumsThePrograms(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, n := range IdlePrograms {
		if err := os.WriteFile(filepath.Join(dir, n+".pid"), []byte(fmt.Sprintln(os.Getpid())), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	own, _, ok := readRSS(os.Getpid())
	if !ok || own <= 0 {
		t.Fatalf("own RSS %d, %v", own, ok)
	}
	l := IdleMemory(dir)
	var mb float64
	if _, err := fmt.Sscanf(l.Product, "%f MB", &mb); err != nil {
		t.Fatalf("%+v: %v", l, err)
	}
	// The test's own RSS moves a little between the two reads.
	want := float64(own) * float64(len(IdlePrograms)) / 1e6
	if mb < 0.9*want || mb > 1.1*want || l.Missed != (mb > MaxIdleMB) || l.Goal != "≤ 250 MB" ||
		l.Measure != "Idle memory: gateway + 7 services (RSS, summed)" {
		t.Fatalf("%+v, want about %.0f MB", l, want)
	}

	if err := os.Remove(filepath.Join(dir, "stores.pid")); err != nil {
		t.Fatal(err)
	}
	if l := IdleMemory(dir); !l.Missed || l.Product != "not read: stores" {
		t.Fatalf("a program without a pid: %+v", l)
	}
}

func TestIdleLineGoal(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		rss    int64
		missed bool
		text   string
	}{
		{249e6, false, "249 MB (40 MB of it heap and stacks)"},
		{250e6, false, "250 MB (40 MB of it heap and stacks)"},
		{251e6, true, "251 MB (40 MB of it heap and stacks)"},
	} {
		if l := idleLine(c.rss, 40e6, nil); l.Missed != c.missed || l.Product != c.text {
			t.Errorf("%d bytes: %+v", c.rss, l)
		}
	}
}
