package domain

// Speed is what a real browser measured of the store's home page: lab
// metrics as Lighthouse's mobile run reads them, or why none were taken.
// A review stands without it; speed is reported beside the score, never
// guessed into it.
type Speed struct {
	// Measured is false when no browser measured the page; Reason then
	// says why, in words for the store owner.
	Measured bool   `json:",omitempty"`
	Reason   string `json:",omitempty"`
	// Score is 0–100 on Lighthouse's curves and weights; Runs is how many
	// loads the median is of.
	Score int `json:",omitempty"`
	Runs  int `json:",omitempty"`
	// Times in milliseconds from the start of navigation. INPMs is the
	// lab's stand-in for Interaction to Next Paint (the longest input
	// delay a tap would meet while the page loads, as Lighthouse's lab
	// uses TBT for it).
	FCPMs        float64 `json:",omitempty"`
	LCPMs        float64 `json:",omitempty"`
	TBTMs        float64 `json:",omitempty"`
	SpeedIndexMs float64 `json:",omitempty"`
	INPMs        float64 `json:",omitempty"`
	CLS          float64 `json:",omitempty"`
	Bytes        int64   `json:",omitempty"`
	// Painted is false when the page painted nothing in the time given.
	Painted bool `json:",omitempty"`
	// LCPElement is the slowest element (the largest contentful paint);
	// Shifted are the elements that moved, largest shift first.
	LCPElement string   `json:",omitempty"`
	Shifted    []string `json:",omitempty"`
	// Ratings maps each metric (fcp, lcp, tbt, cls, si, inp) to good,
	// needs-improvement or poor on web.dev's thresholds.
	Ratings map[string]string `json:",omitempty"`
}

// Reasons a review's speed was not measured, as the store owner reads them.
const (
	SpeedNoBrowser = "Speed was not measured: no browser is available to the review right now. The rest of the review stands; the next review tries again."
	SpeedFailed    = "Speed was not measured: the browser could not load your home page in time. The rest of the review stands; the next review tries again."
)
