package ordercsv

import (
	"bytes"
	"encoding/csv"
	"io"
	"testing"

	"uplift.dev/stores/internal/domain"
	"uplift.dev/stores/internal/ordercsv/ordercsvtest"
)

// BenchmarkParse reads a 100,000-order export; the baseline only splits the
// same bytes into records with encoding/csv, the floor any CSV import pays.
// The product builds the orders in batches of 2,000, as an import does.
func BenchmarkParse(b *testing.B) {
	data := ordercsvtest.Export(100000)
	b.Run("baseline=encoding-csv", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			r := csv.NewReader(bytes.NewReader(data))
			r.ReuseRecord = true
			for {
				if _, err := r.Read(); err == io.EOF {
					break
				} else if err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(100000*float64(b.N)/b.Elapsed().Seconds(), "orders/s")
	})
	b.Run("product=ordercsv", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			f, err := Read(bytes.NewReader(data))
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			if _, err := f.Each(2000, func(batch []domain.Order) error { n += len(batch); return nil }); err != nil || n != 100000 {
				b.Fatal(n, err)
			}
		}
		b.ReportMetric(100000*float64(b.N)/b.Elapsed().Seconds(), "orders/s")
		b.ReportMetric(0.6, "goal-ratio") // issue 25: ≥ 0.6× the baseline's rate
	})
}
