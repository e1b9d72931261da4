package domain

import "fmt"

// Suggested actions, each picked from what moved (see SuggestedAction).
const (
	ActionCheckout = "Orders fell while visits held steady, so fewer visitors bought: check your checkout. Place a test order and look at payment, shipping and discount codes."
	ActionTraffic  = "Fewer people visited: check your traffic sources (ads, email, social, search) for one that slowed down or stopped."
	ActionReturns  = "More goods came back than usual: check which products were returned and why, before they sell again."
	ActionFeature  = "Feature %s, yesterday's best seller, on your home page or in your next email or post."
	ActionLook     = "Open your analytics to see how the week is going."
)

// cause is what the unusual changes of a day point to, the reason behind
// the one action a report suggests.
type cause int

const (
	causeNone cause = iota
	causeCheckout
	causeTraffic
	causeReturns
)

// causeOf reads the cause from the judged metrics: orders (or the
// conversion rate) fell unusually while sessions held → checkout; sessions
// fell unusually → traffic; returns rose unusually → returns. It is
// decided with the headline, from the same metrics, so the action never
// points elsewhere than the headline does.
func causeOf(by map[string]*metric) cause {
	fell := func(k string) bool { return by[k].Unusual && by[k].change.Sign() < 0 }
	switch {
	case (fell("orders") || fell("conversionRate")) && steady(by["sessions"]):
		return causeCheckout
	case fell("sessions"):
		return causeTraffic
	case by["returns"].Unusual && by["returns"].change.Sign() > 0:
		return causeReturns
	}
	return causeNone
}

// SuggestedAction is the one thing the report asks the owner to do, for
// the email and the Home card alike: what the unusual changes point to,
// else featuring the day's best seller (bestSeller, empty when nothing
// sold), else a look at the analytics.
func (r DailyReport) SuggestedAction(bestSeller string) string {
	switch r.cause {
	case causeCheckout:
		return ActionCheckout
	case causeTraffic:
		return ActionTraffic
	case causeReturns:
		return ActionReturns
	}
	if bestSeller != "" {
		return fmt.Sprintf(ActionFeature, bestSeller)
	}
	return ActionLook
}
