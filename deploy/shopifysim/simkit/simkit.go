// Package simkit is what the platform simulators (shopifysim, woosim) share
// that belongs to no platform: the fault queue their control APIs fill,
// their control APIs' strict JSON bodies, and waits that end when the
// simulator closes.
package simkit

import (
	"context"
	"encoding/json"
	"net/http"
	"time"
)

// Fault makes the next Count calls of one kind misbehave; each simulator
// names its kinds and what they do.
type Fault struct {
	Kind  string        `json:"kind"`
	Count int           `json:"count"` // 0 = 1
	Delay time.Duration `json:"-"`
}

// Faults is one store's queue of faults; the caller holds its lock.
type Faults []Fault

// Add queues a fault; a Count of 0 or less means one.
func (fs *Faults) Add(f Fault) {
	if f.Count <= 0 {
		f.Count = 1
	}
	*fs = append(*fs, f)
}

// Take uses up one count of the first fault of that kind; nil when none is queued.
func (fs *Faults) Take(kind string) *Fault {
	for i := range *fs {
		f := &(*fs)[i]
		if f.Kind == kind && f.Count > 0 {
			f.Count--
			out := *f
			if f.Count == 0 {
				*fs = append((*fs)[:i], (*fs)[i+1:]...)
			}
			return &out
		}
	}
	return nil
}

// Decode reads a control API body strictly (no unknown fields, at most
// 4 MiB); on a bad one it answers 400 {"error": "..."} and returns false.
func Decode(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": "bad JSON body: " + err.Error()})
		return false
	}
	return true
}

// Sleep waits d or until ctx ends; it reports whether the full wait elapsed.
func Sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
