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

// Every check has a name written as people write its words, since the
// owner reads it as a heading: not "Https" or "Open graph" made from the id.
func TestEveryCheckHasItsName(t *testing.T) {
	t.Parallel()
	for _, c := range Checks {
		if name := CheckName(c.ID); name == c.ID || name == "" {
			t.Errorf("check %q has no name", c.ID)
		}
	}
	for id, want := range map[string]string{CheckHTTPS: "HTTPS", CheckOpenGraph: "Open Graph tags",
		CheckHTTPStatus: "HTTP status code", CheckSitemapRobots: "Sitemap and robots.txt"} {
		if got := CheckName(id); got != want {
			t.Errorf("CheckName(%q) = %q, want %q", id, got, want)
		}
	}
}
