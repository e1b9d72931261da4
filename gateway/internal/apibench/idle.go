package apibench

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// IdlePrograms are the programs whose memory at idle the table sums (issue
// 25, goal 5): the gateway and the seven services, not the workers,
// simulators or infrastructure.
var IdlePrograms = []string{"gateway", "users", "categories", "billing", "digest", "stores", "studio", "review"}

// MaxIdleMB is the goal for their resident memory together, in MB (10⁶ bytes).
const MaxIdleMB = 250

// IdleMemory is the table's idle-memory line: the resident set (VmRSS) of
// each of IdlePrograms summed, read from /proc for the pids in pidDir (the
// stack's <name>.pid files) while nothing is asked of the stack. A program
// without a pid or a /proc entry makes the line a miss that names it.
func IdleMemory(pidDir string) Line {
	var rss, anon int64
	var missing []string
	for _, name := range IdlePrograms {
		pids := Settings{PidDir: pidDir}.pids(name)
		if len(pids) == 0 {
			missing = append(missing, name)
			continue
		}
		r, a, ok := readRSS(pids[0])
		if !ok {
			missing = append(missing, name)
			continue
		}
		rss, anon = rss+r, anon+a
	}
	return idleLine(rss, anon, missing)
}

func idleLine(rss, anon int64, missing []string) Line {
	l := Line{Measure: fmt.Sprintf("Idle memory: gateway + %d services (RSS, summed)", len(IdlePrograms)-1),
		Product:  fmt.Sprintf("%.0f MB (%.0f MB of it heap and stacks)", float64(rss)/1e6, float64(anon)/1e6),
		Baseline: "—", Ratio: "—", Goal: fmt.Sprintf("≤ %d MB", MaxIdleMB), Missed: rss > MaxIdleMB*1e6}
	if len(missing) > 0 {
		l.Product, l.Missed = "not read: "+strings.Join(missing, ", "), true
	}
	return l
}

// readRSS is a process's resident set and the anonymous part of it (the
// heap, stacks; the rest is pages of files, mostly its own binary), in bytes.
func readRSS(pid int) (rss, anon int64, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, false
	}
	kb := func(v string) int64 {
		n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
		return n << 10
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, found := strings.CutPrefix(line, "VmRSS:"); found {
			rss, ok = kb(v), true
		} else if v, found := strings.CutPrefix(line, "RssAnon:"); found {
			anon = kb(v)
		}
	}
	return rss, anon, ok
}
