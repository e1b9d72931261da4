package domain

// GroupScore is one group's points in a review.
type GroupScore struct {
	Group          string
	Earned, Weight int
}

// CompetitorReview is a competitor's website reviewed like the store's own,
// with the groups where it does better than the store.
type CompetitorReview struct {
	SiteURL  string
	Reviewed bool   `json:",omitempty"`
	Error    string `json:",omitempty"` // why it was not reviewed, for people
	Score    int    `json:",omitempty"`
	Groups   []GroupScore
	// Wins are the groups (search, speed, mobile, trust, conversion) where
	// the competitor earned a larger share of the points than the store.
	Wins []string `json:",omitempty"`
}

// GroupScores sums a review's checks by group, in the groups' order.
func GroupScores(r Review) []GroupScore {
	var out []GroupScore
	for _, g := range []string{GroupSearch, GroupSpeed, GroupMobile, GroupTrust, GroupConversion} {
		gs := GroupScore{Group: g}
		for _, c := range r.Checks {
			if c.Group == g {
				gs.Earned += c.Earned
				gs.Weight += c.Weight
			}
		}
		if gs.Weight > 0 {
			out = append(out, gs)
		}
	}
	return out
}

// CompareCompetitor is the competitor's review set beside the store's own.
func CompareCompetitor(siteURL string, own, theirs Review) CompetitorReview {
	cr := CompetitorReview{SiteURL: siteURL, Reviewed: true, Score: theirs.Score, Groups: GroupScores(theirs)}
	mine := map[string]GroupScore{}
	for _, g := range GroupScores(own) {
		mine[g.Group] = g
	}
	for _, g := range cr.Groups {
		m, ok := mine[g.Group]
		// Shares, not points: both reviews weigh groups the same, but a
		// share stays right if a check is ever left out of one of them.
		if ok && m.Weight > 0 && g.Earned*m.Weight > m.Earned*g.Weight {
			cr.Wins = append(cr.Wins, g.Group)
		}
	}
	return cr
}

// CompetitorNotReadMessage is shown for a competitor whose site could not
// be read when the review ran.
const CompetitorNotReadMessage = "We could not read this website when your review ran; the next review tries again."
