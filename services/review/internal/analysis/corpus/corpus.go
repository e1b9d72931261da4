// Package corpus finds the real store pages the tests read (shared/corpus/
// stores beside the repository, see its README) and their index. It is
// used by tests only; the pages are read in place, never copied.
package corpus

import (
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
	return testcorpus.Index(t, Dir)
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
