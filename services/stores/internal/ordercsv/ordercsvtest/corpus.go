package ordercsvtest

import (
	"errors"
	"os"
	"path/filepath"

	"uplift.dev/platform/testcorpus"
)

// CorpusExport finds the real Shopify order export of the shared corpus
// (read in place, never copied into the repository): beside the checkout,
// wherever it is cloned, else at the workplace's fixed /work/shared. It
// looks from the working directory, not from this file's path, which
// `go test -trimpath` (make test) leaves without a directory.
func CorpusExport() (string, error) {
	const name = "orders_export_1.csv"
	for _, c := range []string{filepath.Join(testcorpus.Dir("orders"), name), filepath.Join("/work/shared/corpus/orders", name)} {
		if _, err := os.Stat(c); err == nil {
			return c, nil
		}
	}
	return "", errors.New("the real order export shared/corpus/orders/" + name + " is not beside the checkout nor in /work")
}
