package ordercsv

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestOrderIndexAgreesWithAMapByName: names that share a hash (here most
// of them: four hash values for 300 names) are still told apart, as a map
// by name tells them, and so are names with hashes of their own.
func TestOrderIndexAgreesWithAMapByName(t *testing.T) {
	t.Parallel()
	for name, idx := range map[string]orderIndex{
		"maphash":      newOrderIndex(),
		"four buckets": {hash: func(s string) uint64 { return uint64(len(s) % 4) }, byHash: map[uint64]int32{}},
	} {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			want := map[string]int{}
			var drafts []*draft
			for range 3000 {
				n := fmt.Sprintf("#%d", rng.IntN(300))
				i, ok, at := idx.find(n, drafts)
				j, known := want[n]
				if ok != known || (ok && i != j) {
					t.Fatalf("%s: find gave %d, %v; a map by name %d, %v", n, i, ok, j, known)
				}
				if !ok {
					want[n] = len(drafts)
					idx.add(at, n, len(drafts))
					drafts = append(drafts, &draft{name: n})
				}
			}
			if len(drafts) != len(want) {
				t.Fatalf("%d drafts for %d names", len(drafts), len(want))
			}
		})
	}
}
