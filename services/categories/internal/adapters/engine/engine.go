// Package engine reaches the review service for the app's Analyzer,
// Calendar and Catalogue: the quick reads over its gRPC API, so the app
// never depends on how sites are read. The reviews themselves are asked for
// with ReviewRequested and answered by the review service's events.
package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/timestamppb"

	reviewv1 "uplift.dev/proto/gen/uplift/review/v1"

	"uplift.dev/categories/internal/domain"
)

// Engine implements app.Analyzer, app.Calendar and app.Catalogue through
// the review service.
type Engine struct{ rpc reviewv1.ReviewServiceClient }

// New reaches the review service over conn (grpcclient.New).
func New(conn grpc.ClientConnInterface) Engine {
	return Engine{rpc: reviewv1.NewReviewServiceClient(conn)}
}

// Check implements app.Analyzer: nil when the site's home page can be
// read, else a *domain.UnreadableError saying which kind of failure it was
// and why, for the message under the profile's Website.
func (e Engine) Check(ctx context.Context, siteURL string) error {
	res, err := e.rpc.CheckSite(ctx, &reviewv1.CheckSiteRequest{SiteUrl: siteURL})
	if err != nil {
		return fmt.Errorf("review service: %w", err)
	}
	if u := res.GetUnreadable(); u != nil {
		return fromProtoUnreadable(u)
	}
	return nil
}

// Score implements app.Analyzer: the review only, for the public score; a
// site that cannot be read is a *domain.UnreadableError, as Check says it.
func (e Engine) Score(ctx context.Context, siteURL string) (domain.Review, error) {
	res, err := e.rpc.ScoreSite(ctx, &reviewv1.ScoreSiteRequest{SiteUrl: siteURL})
	if err != nil {
		return domain.Review{}, fmt.Errorf("review service: %w", err)
	}
	if u := res.GetUnreadable(); u != nil {
		return domain.Review{}, fromProtoUnreadable(u)
	}
	var r domain.Review
	if err := json.Unmarshal(res.GetReviewJson(), &r); err != nil {
		return domain.Review{}, fmt.Errorf("review service: the score's review: %w", err)
	}
	return r, nil
}

// NextOccasion implements app.Calendar: the soonest seasonal date after now
// for the store at siteURL.
func (e Engine) NextOccasion(ctx context.Context, now time.Time, siteURL string) (string, time.Time, bool, error) {
	res, err := e.rpc.NextOccasion(ctx, &reviewv1.NextOccasionRequest{AfterTime: timestamppb.New(now), SiteUrl: siteURL,
		TimeZone: now.Location().String()})
	if err != nil {
		return "", time.Time{}, false, fmt.Errorf("review service: %w", err)
	}
	if res.GetName() == "" {
		return "", time.Time{}, false, nil
	}
	return res.GetName(), res.GetOccurTime().AsTime(), true, nil
}

// Products implements app.Catalogue: the products a review reads, with
// their photos.
func (e Engine) Products(ctx context.Context, siteURL string) ([]domain.Product, error) {
	res, err := e.rpc.ReadCatalogue(ctx, &reviewv1.ReadCatalogueRequest{SiteUrl: siteURL})
	if err != nil {
		return nil, fmt.Errorf("review service: %w", err)
	}
	if u := res.GetUnreadable(); u != nil {
		return nil, fmt.Errorf("%w: %w", domain.ErrUnreadableSite, fromProtoUnreadable(u))
	}
	out := make([]domain.Product, 0, len(res.GetProducts()))
	for _, p := range res.GetProducts() {
		out = append(out, domain.Product{ID: p.GetId(), Name: p.GetName(), URL: p.GetUrl(), Price: p.GetPrice(),
			Currency: p.GetCurrency(), ImageURLs: p.GetImageUrls()})
	}
	return out, nil
}

// imageSlack is what a photo's answer carries besides the photo.
const imageSlack = 64 << 10

// FetchImage implements app.Catalogue through the review service's guarded
// fetcher.
func (e Engine) FetchImage(ctx context.Context, imageURL string, limit int64) ([]byte, error) {
	res, err := e.rpc.FetchImage(ctx, &reviewv1.FetchImageRequest{ImageUrl: imageURL, LimitBytes: limit},
		grpc.MaxCallRecvMsgSize(int(limit)+imageSlack))
	switch {
	case err != nil:
		return nil, fmt.Errorf("%w: review service: %w", domain.ErrProductImageRead, err)
	case res.GetTooLarge():
		return nil, domain.ErrProductImageSize
	case res.GetFailure() != "":
		return nil, fmt.Errorf("%w: %s", domain.ErrProductImageRead, res.GetFailure())
	}
	return res.GetData(), nil
}

// fromProtoUnreadable is the review service's reason as the domain's.
func fromProtoUnreadable(u *reviewv1.Unreadable) *domain.UnreadableError {
	p := domain.SiteUnreadable
	switch u.GetProblem() {
	case reviewv1.SiteProblem_SITE_PROBLEM_NOT_FOUND:
		p = domain.SiteNotFound
	case reviewv1.SiteProblem_SITE_PROBLEM_PRIVATE:
		p = domain.SitePrivate
	}
	return &domain.UnreadableError{Reason: u.GetReason(), Problem: p, Err: errors.New(u.GetDetail())}
}
