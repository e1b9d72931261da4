package ordercsv

import (
	"hash/maphash"
	"strings"
)

// orderIndex finds the draft of an order by its name, for the rows of an
// order that do not follow each other. It keeps a 64-bit hash of each name
// (maphash, seeded per file) to the draft's index: a map of strings spent
// a fifth of a 100,000-order parse hashing, comparing and growing. Two
// names with one hash (about once in 10⁹ files of 100,000 orders) are told
// apart by the draft's own name, and the later one is kept by name.
type orderIndex struct {
	hash   func(string) uint64
	byHash map[uint64]int32
	byName map[string]int // names whose hash another name had first
}

func newOrderIndex() orderIndex {
	seed := maphash.MakeSeed()
	return orderIndex{hash: func(s string) uint64 { return maphash.String(seed, s) }, byHash: map[uint64]int32{}}
}

// slot is where find looked, for add to put the name there.
type slot struct {
	h    uint64
	free bool // no name has h yet
}

// find returns the index in drafts of the order called name.
func (x *orderIndex) find(name string, drafts []*draft) (int, bool, slot) {
	h := x.hash(name)
	i, hit := x.byHash[h]
	if !hit {
		return 0, false, slot{h: h, free: true}
	}
	if drafts[i].name == name {
		return int(i), true, slot{h: h}
	}
	j, ok := x.byName[name]
	return j, ok, slot{h: h}
}

// add records that the order called name is drafts[i], where find did not
// find it.
func (x *orderIndex) add(s slot, name string, i int) {
	if s.free {
		x.byHash[s.h] = int32(i)
		return
	}
	if x.byName == nil {
		x.byName = map[string]int{}
	}
	x.byName[strings.Clone(name)] = i
}
