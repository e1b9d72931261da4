package review

import "testing"

func TestWeightsArePublishedAndSumTo100(t *testing.T) {
	sum, seen := 0, map[string]bool{}
	for _, c := range Checks {
		if seen[c.ID] {
			t.Errorf("check %s listed twice", c.ID)
		}
		seen[c.ID] = true
		sum += c.Points
		if c.run == nil || c.Group == "" || c.Points <= 0 || (c.Audit == "") != (c.audit == nil) {
			t.Errorf("check %s is incomplete", c.ID)
		}
	}
	if sum != 100 {
		t.Fatalf("weights sum to %d, want 100", sum)
	}
}
