package domain

import "time"

// Recipient is what the digest service knows of a user from the users
// service's events: where their mail goes and which category is theirs.
type Recipient struct {
	UserID     string
	Email      string
	CategoryID string
}

// Store is what the digest service knows of a category from the categories
// service's CategoryUpdated: the newest snapshot by At.
type Store struct {
	CategoryID            string
	OwnerUserID           string
	Name                  string
	SiteURL               string
	DisableWeeklyEmail    bool
	DisableBusinessReport bool
	At                    time.Time
}

// Suppression is whether a user receives one kind of email, as of At.
// Changes are kept newest-wins by At, so a late, older event never undoes
// a newer choice.
type Suppression struct {
	UserID     string
	Kind       Kind
	Suppressed bool
	At         time.Time
	// Source says where the choice was made, for the send log.
	Source string
}

// Sources of a suppression.
const (
	SourceOneClick       = "unsubscribe_link"
	SourceResubscribe    = "resubscribe_page"
	SourceUnsubscribeAll = "unsubscribe_all"
	SourceProfile        = "business_profile"
)

// ProfileSuppressions are the changes a new snapshot of a store's switches
// means for its owner, comparing with the previous snapshot (nil if none):
// only a switch that changed (or a first snapshot) counts, so an unrelated
// change of the store's name never undoes an unsubscribe made meanwhile.
func ProfileSuppressions(prev *Store, next Store) []Suppression {
	if next.OwnerUserID == "" {
		return nil
	}
	var out []Suppression
	add := func(kind Kind, was, is bool, first bool) {
		if first || was != is {
			out = append(out, Suppression{UserID: next.OwnerUserID, Kind: kind, Suppressed: is, At: next.At, Source: SourceProfile})
		}
	}
	first := prev == nil
	var p Store
	if prev != nil {
		p = *prev
	}
	add(KindWeeklyReview, p.DisableWeeklyEmail, next.DisableWeeklyEmail, first)
	add(KindDailyReport, p.DisableBusinessReport, next.DisableBusinessReport, first)
	return out
}
