// Package corpus finds the real store pages the tests read (shared/corpus/
// stores beside the repository, see its README) and their index. It is
// used by tests only; the pages are read in place, never copied.
package corpus

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"testing"

	"uplift.dev/platform/testcorpus"
)

// Dir is the corpus folder: shared/ sits beside the repository's folder, on
// a developer's machine and in CI alike, so it is looked for upwards.
var Dir = testcorpus.Dir("stores")

// Rows reads INDEX.tsv: one map of column → value per page. It skips the
// test when the corpus is not there.
func Rows(t testing.TB) []map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(Dir, "INDEX.tsv"))
	if err != nil {
		t.Skipf("store corpus not available at %s: %v", Dir, err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma, r.LazyQuotes, r.FieldsPerRecord = '\t', true, -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, row := range rows[1:] {
		m := map[string]string{}
		for i, h := range rows[0] {
			if i < len(row) {
				m[h] = row[i]
			}
		}
		out = append(out, m)
	}
	return out
}

// Page returns one corpus page's HTML.
func Page(t testing.TB, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(Dir, file))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
