package memtrim

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// mapping is one block of /proc/self/smaps.
type mapping struct {
	start, end     uintptr
	perms, path    string
	rss, anonymous int64 // bytes
}

// dropExecutable madvises MADV_DONTNEED over the executable's mappings
// that are not writable (r-xp, r--p) and hold no anonymous page (a private
// copy of a page the process wrote): for those the advice only unmaps the
// page cache's own pages of the file, which the next access maps again. A
// writable mapping (data, bss) or one with a written page (relocated
// read-only data) is never touched: dropping it would lose the writes.
func dropExecutable() (int64, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, err
	}
	if p, err := filepath.EvalSymlinks(exe); err == nil {
		exe = p
	}
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return 0, err
	}
	var dropped int64
	for _, m := range parseSmaps(b) {
		if m.path != exe || m.anonymous != 0 || (m.perms != "r-xp" && m.perms != "r--p") {
			continue
		}
		if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, m.start, m.end-m.start, syscall.MADV_DONTNEED); errno != 0 {
			return dropped, fmt.Errorf("madvise %x-%x: %w", m.start, m.end, errno)
		}
		dropped += m.rss
	}
	return dropped, nil
}

// parseSmaps reads the mappings of /proc/PID/smaps: a header line
// ("start-end perms offset dev inode [path]") and then "Key: N kB" lines.
func parseSmaps(b []byte) []mapping {
	var out []mapping
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		if len(f) >= 5 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":") {
			lo, hi, _ := strings.Cut(f[0], "-")
			start, err1 := strconv.ParseUint(lo, 16, 64)
			end, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 != nil || err2 != nil {
				continue
			}
			m := mapping{start: uintptr(start), end: uintptr(end), perms: f[1]}
			if len(f) >= 6 {
				m.path = strings.Join(f[5:], " ")
			}
			out = append(out, m)
			continue
		}
		if len(out) == 0 || len(f) < 2 {
			continue
		}
		kb, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			continue
		}
		switch f[0] {
		case "Rss:":
			out[len(out)-1].rss = kb << 10
		case "Anonymous:":
			out[len(out)-1].anonymous = kb << 10
		}
	}
	return out
}
