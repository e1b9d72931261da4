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
	run := s.serviceEnv("review")
	for _, want := range []string{"FETCH_ALLOW_ORIGINS=http://127.0.0.1:9400", "FETCH_ALLOW_LOOPBACK=false"} {
		if !slices.Contains(run, want) {
			t.Errorf("run: review env %v lacks %s", run, want)
		}
	}
	s.ForTests = true
	if tests := s.serviceEnv("review"); !slices.Contains(tests, "FETCH_ALLOW_LOOPBACK=true") {
		t.Errorf("tests: review env %v does not allow loopback", tests)
	}
	// The review worker reads websites too, under the same policy; the
	// review service leaves the reviews to it, and categories reaches the
	// review service for the quick reads.
	if !slices.Contains(run, "REVIEWS_IN_WORKER=true") {
		t.Errorf("review env %v does not leave reviews to the worker", run)
	}
	if cats := s.serviceEnv("categories"); !slices.Contains(cats, "REVIEW_ADDR=127.0.0.1:9007") {
		t.Errorf("categories env %v lacks the review service's address", cats)
	}
	s.ForTests = false
	for _, want := range []string{"FETCH_ALLOW_ORIGINS=http://127.0.0.1:9400", "FETCH_ALLOW_LOOPBACK=false", "REVIEW_WORKER_METRICS_ADDR=127.0.0.1:9207"} {
		if w := s.reviewWorkerEnv(); !slices.Contains(w, want) {
			t.Errorf("review worker env %v lacks %s", w, want)
		}
	}
	if w := s.reviewWorkerEnv(); slices.Contains(w, "REVIEW_LAB_RUNS=1") {
		t.Errorf("make run's review worker measures one load only: %v", w)
	}
	s.ForTests = true
	if w := s.reviewWorkerEnv(); !slices.Contains(w, "REVIEW_LAB_RUNS=1") {
		t.Errorf("the tests' review worker env %v measures more than one load", w)
	}
	for _, name := range []string{"users", "categories", "billing", "digest", "stores"} {
		for _, kv := range s.serviceEnv(name) {
			if len(kv) > 6 && kv[:6] == "FETCH_" {
				t.Errorf("%s gets %s; only the review service reads websites", name, kv)
			}
		}
	}
}
