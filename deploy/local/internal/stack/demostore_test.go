package stack

import (
	"slices"
	"testing"

	"uplift.dev/platform/natsauth"
)

// TestOnlyTheDemoStoreIsReadableUnderRun: `make run` lets the website reader
// fetch the demo store's origin and no other loopback address; the tests'
// stack also allows loopback, where they serve stores of their own.
func TestOnlyTheDemoStoreIsReadableUnderRun(t *testing.T) {
	s, err := New(t.TempDir(), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The NATS identities startNATS would make.
	if s.natsKeys, err = natsauth.NewKeyring(natsauth.Programs()...); err != nil {
		t.Fatal(err)
	}
	run := s.serviceEnv("review", 0)
	for _, want := range []string{"FETCH_ALLOW_ORIGINS=http://127.0.0.1:9400", "FETCH_ALLOW_LOOPBACK=false"} {
		if !slices.Contains(run, want) {
			t.Errorf("run: review env %v lacks %s", run, want)
		}
	}
	s.ForTests = true
	if tests := s.serviceEnv("review", 0); !slices.Contains(tests, "FETCH_ALLOW_LOOPBACK=true") {
		t.Errorf("tests: review env %v does not allow loopback", tests)
	}
	// The review worker reads websites too, under the same policy; the
	// review service leaves the reviews to it, and categories reaches the
	// review service for the quick reads.
	if !slices.Contains(run, "REVIEWS_IN_WORKER=true") {
		t.Errorf("review env %v does not leave reviews to the worker", run)
	}
	if cats := s.serviceEnv("categories", 0); !slices.Contains(cats, "REVIEW_ADDR=127.0.0.1:9007") {
		t.Errorf("categories env %v lacks the review service's address", cats)
	}
	// With copies, each caller balances over every copy, and each copy
	// listens on its own loopback address.
	s.Copies = 2
	if cats := s.serviceEnv("categories", 1); !slices.Contains(cats, "REVIEW_ADDR=127.0.0.1:9007,127.0.0.2:9007") {
		t.Errorf("categories env %v does not list both copies of review", cats)
	}
	if w := s.reviewWorkerEnv(1); !slices.Contains(w, "REVIEW_WORKER_METRICS_ADDR=127.0.0.2:9207") {
		t.Errorf("the second review worker's env %v does not serve its metrics on its own address", w)
	}
	s.Copies = 0
	s.ForTests = false
	for _, want := range []string{"FETCH_ALLOW_ORIGINS=http://127.0.0.1:9400", "FETCH_ALLOW_LOOPBACK=false", "REVIEW_WORKER_METRICS_ADDR=127.0.0.1:9207"} {
		if w := s.reviewWorkerEnv(0); !slices.Contains(w, want) {
			t.Errorf("review worker env %v lacks %s", w, want)
		}
	}
	if w := s.reviewWorkerEnv(0); slices.Contains(w, "REVIEW_LAB_RUNS=1") {
		t.Errorf("make run's review worker measures one load only: %v", w)
	}
	s.ForTests = true
	if w := s.reviewWorkerEnv(0); !slices.Contains(w, "REVIEW_LAB_RUNS=1") {
		t.Errorf("the tests' review worker env %v measures more than one load", w)
	}
	for _, name := range []string{"users", "categories", "billing", "digest", "stores"} {
		for _, kv := range s.serviceEnv(name, 0) {
			if len(kv) > 6 && kv[:6] == "FETCH_" {
				t.Errorf("%s gets %s; only the review service reads websites", name, kv)
			}
		}
	}
}
