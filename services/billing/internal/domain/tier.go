// Package domain holds the paid plan's rules with no I/O: which tiers exist,
// how a Stripe event changes a user's billing, and when a change must be
// ignored because a newer or manual one is already in place.
package domain

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// FreeTier is the tier every user without a paid plan is on. It must always
// exist, because downgrades (a cancelled subscription) land there.
const FreeTier = "free"

// Tier is a plan a user can be on, as configured by an operator.
type Tier struct {
	Name       string   `json:"name"`
	SortOrder  int32    `json:"sortOrder"`
	Hidden     bool     `json:"hidden"`
	Prices     Prices   `json:"prices"`
	Included   []string `json:"included"`
	ComingSoon []string `json:"comingSoon"`
}

// Prices of a tier; only the monthly price is used (spec section 5).
type Prices struct {
	Monthly Price `json:"monthly"`
}

// Price is an amount in cents and the Stripe price that charges it.
type Price struct {
	Amount   int32  `json:"amount"`
	StripeID string `json:"stripeId"`
}

// Tiers maps tier id to tier.
type Tiers map[string]Tier

// ParseTiers reads the tiers configuration (a JSON object keyed by tier id)
// and checks it, so a bad file stops the service at start instead of
// confusing a customer later.
func ParseTiers(raw []byte) (Tiers, error) {
	var out Tiers
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("tiers: not valid JSON: %w", err)
	}
	return out, out.Validate()
}

// Validate reports every problem in the tiers at once.
func (ts Tiers) Validate() error {
	var problems []string
	free, ok := ts[FreeTier]
	if !ok {
		problems = append(problems, `tier "free" is missing; it must always exist`)
	} else if free.Prices.Monthly.Amount != 0 {
		problems = append(problems, `tier "free" must cost 0`)
	}
	prices := map[string]string{}
	for _, id := range ts.IDs() {
		t := ts[id]
		if strings.TrimSpace(id) == "" {
			problems = append(problems, "a tier has an empty id")
		}
		if strings.TrimSpace(t.Name) == "" {
			problems = append(problems, fmt.Sprintf("tier %q: name is required", id))
		}
		if t.Prices.Monthly.Amount < 0 {
			problems = append(problems, fmt.Sprintf("tier %q: amount must not be negative", id))
		}
		if id != FreeTier && t.Prices.Monthly.Amount > 0 && t.Prices.Monthly.StripeID == "" {
			problems = append(problems, fmt.Sprintf("tier %q: a paid tier needs prices.monthly.stripeId", id))
		}
		if sid := t.Prices.Monthly.StripeID; sid != "" {
			if other, dup := prices[sid]; dup {
				problems = append(problems, fmt.Sprintf("tiers %q and %q share stripeId %q", other, id, sid))
			}
			prices[sid] = id
		}
	}
	if len(problems) > 0 {
		return errors.New("tiers: " + strings.Join(problems, "; "))
	}
	return nil
}

// IDs returns the tier ids in a stable order.
func (ts Tiers) IDs() []string {
	ids := make([]string, 0, len(ts))
	for id := range ts {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// ByPriceID finds the tier a Stripe price belongs to.
func (ts Tiers) ByPriceID(priceID string) (string, bool) {
	if priceID == "" {
		return "", false
	}
	for _, id := range ts.IDs() {
		if ts[id].Prices.Monthly.StripeID == priceID {
			return id, true
		}
	}
	return "", false
}

// IsPaid reports whether tier is one a customer pays for, so the portal
// (managing a subscription) makes sense.
func IsPaid(tier string) bool { return tier != "" && tier != FreeTier }
