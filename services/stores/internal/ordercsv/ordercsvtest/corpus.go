package ordercsvtest

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
)

// CorpusExport finds the real Shopify order export of the shared corpus
// (read in place, never copied into the repository): beside the checkout,
// wherever it is cloned, else at the workplace's fixed /work/shared.
func CorpusExport() (string, error) {
	const rel = "shared/corpus/orders/orders_export_1.csv"
	var candidates []string
	if _, file, _, ok := runtime.Caller(0); ok {
		// file is <repo>/services/stores/internal/ordercsv/ordercsvtest/corpus.go
		candidates = append(candidates, filepath.Join(filepath.Dir(file), "../../../../../..", rel))
	}
	candidates = append(candidates, filepath.Join("/work", rel))
	for _, c := range candidates {
		if _, err := os.Stat(c); err == nil {
			return c, nil
		}
	}
	return "", errors.New("the real order export " + rel + " is not beside the checkout nor in /work")
}
