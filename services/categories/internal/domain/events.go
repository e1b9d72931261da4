package domain

// Event is one event a change implies. The domain says which (Effects.Events,
// WeeklyEmails); the repository writes each to the outbox in the change's
// transaction, so the adapter decides none.
type Event interface{ isEvent() }

// ReviewStarted asks for the report's review (ReviewRequested) and tells the
// web it is under way (ReportUpdated, GENERATING).
type ReviewStarted struct{ Report *Report }

// ActedOnBehalf tells the users service's audit log of a change an
// uplifter made for the owner.
type ActedOnBehalf struct{ Entry AuditEntry }

// DigestAsked asks the digest service for the AI email digest.
type DigestAsked struct{ Request DigestRequest }

// CategoryAnnounced publishes the category as saved (CategoryUpdated).
type CategoryAnnounced struct{}

// WeeklyEmail is a review's email (WeeklyReviewReady).
type WeeklyEmail struct{ Review WeeklyReview }

func (ReviewStarted) isEvent()     {}
func (ActedOnBehalf) isEvent()     {}
func (DigestAsked) isEvent()       {}
func (CategoryAnnounced) isEvent() {}
func (WeeklyEmail) isEvent()       {}

// Events are the events e implies, in the order they are written.
func (e Effects) Events() []Event {
	var out []Event
	if e.NewReport != nil {
		out = append(out, ReviewStarted{Report: e.NewReport})
	}
	if e.OnBehalf != nil {
		out = append(out, ActedOnBehalf{Entry: *e.OnBehalf})
	}
	if e.Digest != nil {
		out = append(out, DigestAsked{Request: *e.Digest})
	}
	if e.Announce {
		out = append(out, CategoryAnnounced{})
	}
	return out
}

// WeeklyEmails are the emails a finished review sends, given the week its
// report has as it is stored (read under the category's lock, since the
// weekly schedule may make a review under way the week's): the business's
// first review has one whatever its week ("Your first website review is
// ready"); any other only when it is the week's review. weekly is the email
// the app offers, nil for none.
func WeeklyEmails(weekly *WeeklyReview, week string) []WeeklyEmail {
	if weekly == nil || (!weekly.First && week == "") {
		return nil
	}
	w := *weekly
	if !w.First {
		w.Week = week
	}
	return []WeeklyEmail{{Review: w}}
}
