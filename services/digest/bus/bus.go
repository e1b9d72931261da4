// Package bus declares what the digest service reads from the event bus:
// its durable consumers, one per email it sends or recipient change it
// keeps. Its event port runs them; the deploy tooling (deploy/local) links
// this package in to grant the service's NATS identity exactly these and
// nothing more (platform/natsauth), so a change here changes this service's
// permissions alone.
package bus

import "uplift.dev/platform/events"

// Consumers.
var (
	Welcome      = events.Declare("digest", "digest-welcome", events.SubjectUserCreated)
	EmailChanged = events.Declare("digest", "digest-email-changed", events.SubjectUserEmailChanged)
	UserDeleted  = events.Declare("digest", "digest-user-deleted", events.SubjectUserDeleted)
	Reset        = events.Declare("digest", "digest-password-reset", events.SubjectPasswordResetRequested)
	SignUp       = events.Declare("digest", "digest-sign-up-attempted", events.SubjectSignUpAttempted)
	Verification = events.Declare("digest", "digest-email-verification", events.SubjectEmailVerificationRequested)
	Unsubscribed = events.Declare("digest", "digest-user-unsubscribed", events.SubjectUserUnsubscribed)
	Category     = events.Declare("digest", "digest-category-updated", events.SubjectCategoryUpdated)
	AIDigest     = events.Declare("digest", "digest-ai-digest", events.SubjectDigestRequested)
	DailyReport  = events.Declare("digest", "digest-daily-report", events.SubjectDailyReportReady)
	ShopMoved    = events.Declare("digest", "digest-shop-moved", events.SubjectShopifyShopMoved)
	WeeklyReview = events.Declare("digest", "digest-weekly-review", events.SubjectWeeklyReviewReady)
)
