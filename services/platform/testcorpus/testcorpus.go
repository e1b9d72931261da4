// Package testcorpus finds the shared research corpus (shared/corpus beside
// the repository: real store pages, order exports, product photos) that
// tests and benchmarks read in place and never copy.
package testcorpus

import (
	"os"
	"path/filepath"
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
