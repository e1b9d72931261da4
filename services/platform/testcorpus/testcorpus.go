// Package testcorpus finds the shared research corpus (shared/corpus beside
// the repository: real store pages, order exports, product photos) that
// tests and benchmarks read in place and never copy.
package testcorpus

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"testing"
)

// Dir is shared/corpus/<kind>, looked for upwards from the working
// directory, as shared/ sits beside the repository's folder on a
// developer's machine and in CI alike; where none is found, the path it
// would have below the working directory (tests then skip).
func Dir(kind string) string {
	dir, _ := os.Getwd()
	for d := dir; ; d = filepath.Dir(d) {
		c := filepath.Join(d, "shared", "corpus", kind)
		if st, err := os.Stat(c); err == nil && st.IsDir() {
			return c
		}
		if filepath.Dir(d) == d {
			return filepath.Join(dir, "shared", "corpus", kind)
		}
	}
}

// Index reads dir/INDEX.tsv (a header row, then one row per item): a map of
// column → value per row. It skips the test when the corpus is not there
// (research data, never part of the repository).
func Index(t testing.TB, dir string) []map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "INDEX.tsv"))
	if err != nil {
		t.Skipf("corpus not available at %s: %v", dir, err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma, r.LazyQuotes, r.FieldsPerRecord = '\t', true, -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s is empty", filepath.Join(dir, "INDEX.tsv"))
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
