package memtrim

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
)

// status reads a "Key: N kB" line of /proc/self/status, in bytes.
func status(t *testing.T, key string) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/self/status", key)
	return 0
}

var written = map[string]int{"kept": 1}

// Trim gives back the executable's resident pages, and the program runs on
// as before: its code comes back as it runs, its written data stays.
func TestTrimDropsTheExecutablesPagesAndKeepsItsData(t *testing.T) {
	written["after start"] = 2
	before := status(t, "RssFile")
	dropped, err := Trim()
	if err != nil {
		t.Fatal(err)
	}
	after := status(t, "RssFile")
	if dropped < 1<<20 || before-after < 512<<10 {
		t.Fatalf("RssFile %d kB → %d kB, %d kB of the executable dropped: want at least 1 MB dropped and 512 kB less resident", before>>10, after>>10, dropped>>10)
	}
	b, err := json.Marshal(written) // code not run since the trim
	if err != nil || string(b) != `{"after start":2,"kept":1}` {
		t.Fatalf("after the trim: %s, %v", b, err)
	}
}

func TestParseSmaps(t *testing.T) {
	ms := parseSmaps([]byte(`00400000-0151e000 r-xp 00000000 fe:00 10010819                           /srv/bin/users
Size:              17528 kB
Rss:               15608 kB
Anonymous:             0 kB
02cc8000-02db0000 rw-p 028c8000 fe:00 10010819                           /srv/bin/my users
Rss:                 800 kB
Anonymous:           120 kB
7fe8282a9000-7fe82840b000 rw-p 00000000 00:00 0 
Rss:                 920 kB
`))
	if len(ms) != 3 || ms[0].start != 0x400000 || ms[0].end != 0x151e000 || ms[0].perms != "r-xp" ||
		ms[0].path != "/srv/bin/users" || ms[0].rss != 15608<<10 || ms[1].path != "/srv/bin/my users" ||
		ms[1].anonymous != 120<<10 || ms[2].path != "" || ms[2].rss != 920<<10 {
		t.Fatalf("%+v", ms)
	}
}
