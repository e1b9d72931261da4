package events

import (
	"fmt"
	"slices"
	"sort"
)

// Consumer is one durable consumer on the Uplift stream: the service that
// runs it, its name (JetStream keeps its position under it, and
// processed_messages the ids it handled) and the one subject it reads.
type Consumer struct {
	Service, Durable, Subject string
}

// consumers is every declared Consumer by service: the one table both the
// consumers (On, OnEach) and the NATS server's permissions (package
// natsauth: each service may make, pull from and ack only its own) are
// built from, so the two cannot drift apart.
var consumers = map[string][]Consumer{}

func declare(service, durable, subject string) Consumer {
	c := Consumer{Service: service, Durable: durable, Subject: subject}
	consumers[service] = append(consumers[service], c)
	return c
}

// check refuses a Consumer made outside this table: NATS would refuse it
// too (natsauth), but only on a server with the production permissions.
func (c Consumer) check() error {
	if !slices.Contains(consumers[c.Service], c) {
		return fmt.Errorf("consumer %s on %s is not declared for %q in events.ConsumersOf", c.Durable, c.Subject, c.Service)
	}
	return nil
}

// ConsumersOf lists service's durable consumers, by name.
func ConsumersOf(service string) []Consumer {
	out := append([]Consumer(nil), consumers[service]...)
	sort.Slice(out, func(i, j int) bool { return out[i].Durable < out[j].Durable })
	return out
}

// The users service's consumers.
var (
	UsersBilling = declare("users", "users-billing", SubjectBillingChanged)
	UsersAudit   = declare("users", "users-audit", SubjectActedOnBehalf)
)

// The categories service's consumers. A review's progress has a consumer
// of its own, so a burst of progress never holds up a finished review.
var (
	CategoriesUsers          = declare("categories", "categories-users", SubjectUserCreated)
	CategoriesUsersDeleted   = declare("categories", "categories-users-deleted", SubjectUserDeleted)
	CategoriesUnsubscribed   = declare("categories", "categories-users-unsubscribed", SubjectUserUnsubscribed)
	CategoriesStoreSignals   = declare("categories", "categories-store-signals", SubjectStoreSignalsUpdated)
	CategoriesEmailKind      = declare("categories", "categories-email-kind-unsubscribed", SubjectEmailKindUnsubscribed)
	CategoriesReviewProgress = declare("categories", "categories-review-progressed", SubjectReviewProgressed)
	CategoriesReviewDone     = declare("categories", "categories-review-completed", SubjectReviewCompleted)
	CategoriesReviewFailed   = declare("categories", "categories-review-failed", SubjectReviewFailed)
)

// The review service's consumer; its worker runs it (with Chromium), or
// the service itself when it has no worker.
var ReviewRequests = declare("review", "review-requested", SubjectReviewRequested)

// The billing service's consumer.
var BillingUserDeleted = declare("billing", "billing-users-deleted", SubjectUserDeleted)

// The digest service's consumers.
var (
	DigestWelcome      = declare("digest", "digest-welcome", SubjectUserCreated)
	DigestEmailChanged = declare("digest", "digest-email-changed", SubjectUserEmailChanged)
	DigestUserDeleted  = declare("digest", "digest-user-deleted", SubjectUserDeleted)
	DigestReset        = declare("digest", "digest-password-reset", SubjectPasswordResetRequested)
	DigestSignUp       = declare("digest", "digest-sign-up-attempted", SubjectSignUpAttempted)
	DigestVerification = declare("digest", "digest-email-verification", SubjectEmailVerificationRequested)
	DigestUnsubscribed = declare("digest", "digest-user-unsubscribed", SubjectUserUnsubscribed)
	DigestCategory     = declare("digest", "digest-category-updated", SubjectCategoryUpdated)
	DigestAIDigest     = declare("digest", "digest-ai-digest", SubjectDigestRequested)
	DigestDailyReport  = declare("digest", "digest-daily-report", SubjectDailyReportReady)
	DigestShopMoved    = declare("digest", "digest-shop-moved", SubjectShopifyShopMoved)
	DigestWeeklyReview = declare("digest", "digest-weekly-review", SubjectWeeklyReviewReady)
)

// The stores service's consumer.
var StoresUserDeleted = declare("stores", "stores-users-deleted", SubjectUserDeleted)

// The studio service's consumers.
var (
	StudioUsersCreated = declare("studio", "studio-users-created", SubjectUserCreated)
	StudioUsersDeleted = declare("studio", "studio-users-deleted", SubjectUserDeleted)
	StudioBilling      = declare("studio", "studio-billing", SubjectBillingChanged)
)
