package domain

import "slices"

// MaxCompetitors is how many competitor websites a business profile keeps
// (an extension of the spec's profile).
const MaxCompetitors = 3

// CompetitorsField and the messages below are what a client sees when the
// competitor list is refused (400).
const (
	CompetitorsField       = "competitorUrls"
	TooManyCompetitorsMsg  = "Add up to 3 competitor websites."
	BadCompetitorMsg       = "Please ensure each competitor's website url is properly formatted and try again."
	CompetitorIsYouMessage = "A competitor's website cannot be your own website."
)

// CompetitorNotReadMessage is shown for a competitor whose site could not
// be read when the review ran.
const CompetitorNotReadMessage = "We could not read this website when your review ran; the next review tries again."

// SetCompetitors replaces the competitor websites (already normalised) and
// says whether they changed. Order is kept; duplicates are dropped.
func (c *Category) SetCompetitors(urls []string) bool {
	var out []string
	for _, u := range urls {
		if u != "" && !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	if slices.Equal(out, c.Competitors) {
		return false
	}
	c.Competitors = out
	return true
}
