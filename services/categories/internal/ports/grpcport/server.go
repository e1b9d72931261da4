// Package grpcport is the categories service's gRPC API: it translates
// requests to use cases and domain errors to gRPC statuses, so the gateway
// can answer the spec's REST calls with the right HTTP status.
package grpcport

import (
	"context"
	"errors"
	"log/slog"
	"slices"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"

	"uplift.dev/categories/internal/app"
	"uplift.dev/categories/internal/domain"
	"uplift.dev/platform/auth"
	"uplift.dev/platform/grpcerr"
	review "uplift.dev/review/domain"
)

// PublicMethods may be called without signing in: the public website score
// invites visitors who have no account yet.
var PublicMethods = []string{
	categoriesv1.CategoriesService_GetWebsiteScore_FullMethodName,
}

// Server implements categoriesv1.CategoriesServiceServer.
type Server struct {
	categoriesv1.UnimplementedCategoriesServiceServer
	App *app.App
	Log *slog.Logger
}

func caller(ctx context.Context) (domain.Caller, string) {
	c, _ := auth.FromContext(ctx)
	return domain.Caller{UID: c.UID, Uplifter: c.Uplifter, Admin: c.Admin}, c.Email
}

// CreateCategory creates or links the caller's own business.
func (s *Server) CreateCategory(ctx context.Context, req *categoriesv1.CreateCategoryRequest) (*categoriesv1.CreateCategoryResponse, error) {
	who, email := caller(ctx)
	c, err := s.App.CreateCategory(ctx, who, email, req.GetShopifyCategoryId(), req.GetTimeZone())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &categoriesv1.CreateCategoryResponse{Category: toProtoCategory(c)}, nil
}

// GetLabel returns the business name.
func (s *Server) GetLabel(ctx context.Context, req *categoriesv1.GetLabelRequest) (*categoriesv1.GetLabelResponse, error) {
	who, _ := caller(ctx)
	c, err := s.App.GetCategory(ctx, who, req.GetCategoryId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &categoriesv1.GetLabelResponse{Name: c.Name}, nil
}

// UpdateLabel renames the business.
func (s *Server) UpdateLabel(ctx context.Context, req *categoriesv1.UpdateLabelRequest) (*categoriesv1.UpdateLabelResponse, error) {
	who, _ := caller(ctx)
	c, err := s.App.UpdateLabel(ctx, who, req.GetCategoryId(), req.GetName())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &categoriesv1.UpdateLabelResponse{Name: c.Name}, nil
}

// GetContentGenerationParams returns the profile's inputs.
func (s *Server) GetContentGenerationParams(ctx context.Context, req *categoriesv1.GetContentGenerationParamsRequest) (*categoriesv1.GetContentGenerationParamsResponse, error) {
	who, _ := caller(ctx)
	c, err := s.App.GetCategory(ctx, who, req.GetCategoryId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &categoriesv1.GetContentGenerationParamsResponse{
		SiteUrl: optional(c.SiteURL), DisableWeeklyEmail: c.DisableWeeklyEmail, AdditionalInfo: c.AdditionalInfo,
		TimeZone: domain.CanonicalTimeZone(c.TimeZone), CompetitorUrls: c.Competitors,
	}, nil
}

// UpdateContentGenerationParams saves the profile's inputs; additional_info
// is read-only and ignored.
func (s *Server) UpdateContentGenerationParams(ctx context.Context, req *categoriesv1.UpdateContentGenerationParamsRequest) (*categoriesv1.UpdateContentGenerationParamsResponse, error) {
	who, _ := caller(ctx)
	in := app.ContentParams{SiteURL: req.SiteUrl, DisableWeeklyEmail: req.DisableWeeklyEmail, TimeZone: req.TimeZone}
	if req.Competitors != nil {
		urls := req.GetCompetitors().GetUrls()
		in.Competitors = &urls
	}
	c, err := s.App.UpdateContentParams(ctx, who, req.GetCategoryId(), in)
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &categoriesv1.UpdateContentGenerationParamsResponse{
		SiteUrl: optional(c.SiteURL), DisableWeeklyEmail: c.DisableWeeklyEmail, AdditionalInfo: c.AdditionalInfo,
		TimeZone: domain.CanonicalTimeZone(c.TimeZone), CompetitorUrls: c.Competitors,
	}, nil
}

// UpdateEmailPreferences switches the daily business report.
func (s *Server) UpdateEmailPreferences(ctx context.Context, req *categoriesv1.UpdateEmailPreferencesRequest) (*categoriesv1.UpdateEmailPreferencesResponse, error) {
	who, _ := caller(ctx)
	c, err := s.App.UpdateEmailPreferences(ctx, who, req.GetCategoryId(), req.DisableBusinessReport)
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &categoriesv1.UpdateEmailPreferencesResponse{
		DisableBusinessReport: c.DisableBusinessReport, DisableWeeklyEmail: c.DisableWeeklyEmail,
	}, nil
}

// DisableBusinessReport turns the daily business report off (the link in
// the report email).
func (s *Server) DisableBusinessReport(ctx context.Context, req *categoriesv1.DisableBusinessReportRequest) (*categoriesv1.DisableBusinessReportResponse, error) {
	who, _ := caller(ctx)
	c, err := s.App.DisableBusinessReport(ctx, who, req.GetCategoryId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &categoriesv1.DisableBusinessReportResponse{
		DisableBusinessReport: c.DisableBusinessReport, DisableWeeklyEmail: c.DisableWeeklyEmail,
	}, nil
}

// GetEmailPreferences returns the email switches.
func (s *Server) GetEmailPreferences(ctx context.Context, req *categoriesv1.GetEmailPreferencesRequest) (*categoriesv1.GetEmailPreferencesResponse, error) {
	who, _ := caller(ctx)
	c, err := s.App.GetCategory(ctx, who, req.GetCategoryId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &categoriesv1.GetEmailPreferencesResponse{
		DisableBusinessReport: c.DisableBusinessReport, DisableWeeklyEmail: c.DisableWeeklyEmail,
	}, nil
}

// GetCurrentReport returns the Home page's report.
func (s *Server) GetCurrentReport(ctx context.Context, req *categoriesv1.GetCurrentReportRequest) (*categoriesv1.GetCurrentReportResponse, error) {
	who, _ := caller(ctx)
	r, err := s.App.CurrentReport(ctx, who, req.GetCategoryId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &categoriesv1.GetCurrentReportResponse{Report: toProtoReport(r)}, nil
}

// GetInsights returns the current insights.
func (s *Server) GetInsights(ctx context.Context, req *categoriesv1.GetInsightsRequest) (*categoriesv1.GetInsightsResponse, error) {
	who, _ := caller(ctx)
	in, err := s.App.Insights(ctx, who, req.GetCategoryId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &categoriesv1.GetInsightsResponse{Insights: toProtoInsights(in)}, nil
}

// ListRecentIdeas returns the current ideas, newest first.
func (s *Server) ListRecentIdeas(ctx context.Context, req *categoriesv1.ListRecentIdeasRequest) (*categoriesv1.ListRecentIdeasResponse, error) {
	who, _ := caller(ctx)
	ideas, err := s.App.RecentIdeas(ctx, who, req.GetCategoryId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &categoriesv1.ListRecentIdeasResponse{Ideas: toProtoIdeas(ideas)}, nil
}

// GetIdea returns one idea.
func (s *Server) GetIdea(ctx context.Context, req *categoriesv1.GetIdeaRequest) (*categoriesv1.GetIdeaResponse, error) {
	who, _ := caller(ctx)
	idea, err := s.App.Idea(ctx, who, req.GetCategoryId(), req.GetIdeaId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &categoriesv1.GetIdeaResponse{Idea: toProtoIdea(idea)}, nil
}

// InvalidateCampaignIdeas discards the current ideas and has new ones made.
func (s *Server) InvalidateCampaignIdeas(ctx context.Context, req *categoriesv1.InvalidateCampaignIdeasRequest) (*categoriesv1.InvalidateCampaignIdeasResponse, error) {
	who, _ := caller(ctx)
	if err := s.App.InvalidateIdeas(ctx, who, req.GetCategoryId()); err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &categoriesv1.InvalidateCampaignIdeasResponse{}, nil
}

// SendAIEmailDigest queues the AI email digest: DigestRequested is in the
// outbox when it answers. A second request within a minute is refused.
func (s *Server) SendAIEmailDigest(ctx context.Context, req *categoriesv1.SendAIEmailDigestRequest) (*categoriesv1.SendAIEmailDigestResponse, error) {
	who, _ := caller(ctx)
	if err := s.App.RequestDigest(ctx, who, req.GetCategoryId()); err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &categoriesv1.SendAIEmailDigestResponse{}, nil
}

// GetWebsiteScore scores any site for the public page.
func (s *Server) GetWebsiteScore(ctx context.Context, req *categoriesv1.GetWebsiteScoreRequest) (*categoriesv1.GetWebsiteScoreResponse, error) {
	r, err := s.App.WebsiteScore(ctx, req.GetUrl())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &categoriesv1.GetWebsiteScoreResponse{
		Url: r.SiteURL, Score: int32(r.Score), Band: string(domain.BandOf(r.Score)),
		Checks: toProtoChecks(r.Checks), Findings: toProtoFindings(r.Findings),
	}, nil
}

// statusRule is what a caller gets for a domain error: a status with a
// message, or (field set) an invalid-argument status naming the field.
type statusRule struct {
	err   error
	code  codes.Code
	msg   string
	field string
}

// statusRules map the domain errors every call may return.
var statusRules = []statusRule{
	{err: domain.ErrUnreadableSite, field: "siteUrl", msg: domain.UnreadableSiteMessage},
	{err: domain.ErrNotFound, code: codes.NotFound, msg: "Business not found."},
	{err: domain.ErrIdeaNotFound, code: codes.NotFound, msg: "Idea not found."},
	{err: domain.ErrPermissionDenied, code: codes.PermissionDenied, msg: "You do not have access to this business."},
	{err: domain.ErrNoProfile, code: codes.FailedPrecondition, msg: "Your account has no business yet. Please sign in again."},
	{err: domain.ErrDigestTooSoon, code: codes.ResourceExhausted, msg: domain.DigestTooSoonMessage},
	{err: domain.ErrWeeklyReviewOff, code: codes.FailedPrecondition, msg: "This business has no website or its weekly email is off."},
	{err: domain.ErrAlreadySent, code: codes.AlreadyExists, msg: "This week's website review was already started."},
}

// catalogueRules come first for the catalogue calls: the store's website
// is not ours, so a site or photo that cannot be read is a precondition
// the owner can act on, not a bad argument or our failure.
var catalogueRules = []statusRule{
	{err: domain.ErrNoWebsite, code: codes.FailedPrecondition, msg: domain.NoWebsiteMessage},
	{err: domain.ErrUnreadableSite, code: codes.FailedPrecondition, msg: domain.CatalogueUnreadableMessage},
	{err: domain.ErrProductNotFound, code: codes.NotFound, msg: domain.ProductNotFoundMessage},
	{err: domain.ErrProductNoImage, code: codes.FailedPrecondition, msg: domain.ProductNoImageMessage},
	{err: domain.ErrProductImageSize, code: codes.FailedPrecondition, msg: domain.ProductImageSizeMessage},
	{err: domain.ErrProductImageRead, code: codes.FailedPrecondition, msg: domain.ProductImageReadMessage},
}

// toStatus is the one mapping from domain errors to gRPC statuses: first
// the call's own rules (first), then statusRules.
func (s *Server) toStatus(ctx context.Context, err error, first ...statusRule) error {
	var ve *domain.ValidationError
	if errors.As(err, &ve) {
		return grpcerr.InvalidField(ve.Field, ve.Message)
	}
	for _, r := range slices.Concat(first, statusRules) {
		if !errors.Is(err, r.err) {
			continue
		}
		if r.field != "" {
			return grpcerr.InvalidField(r.field, r.msg)
		}
		return status.Error(r.code, r.msg)
	}
	// A status from the users service (e.g. Unavailable) keeps its meaning.
	if st, ok := status.FromError(err); ok && st.Code() != codes.Unknown && st.Code() != codes.Internal {
		return st.Err()
	}
	return grpcerr.Internal(ctx, s.Log, err)
}

// RunWeeklyReview starts this week's website review now (admins only).
func (s *Server) RunWeeklyReview(ctx context.Context, req *categoriesv1.RunWeeklyReviewRequest) (*categoriesv1.RunWeeklyReviewResponse, error) {
	who, _ := caller(ctx)
	week, err := s.App.RunWeeklyReviewNow(ctx, who, req.GetCategoryId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &categoriesv1.RunWeeklyReviewResponse{Week: week}, nil
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func toProtoCategory(c domain.Category) *categoriesv1.Category {
	return &categoriesv1.Category{
		Id: c.ID, Name: c.Name, SiteUrl: c.SiteURL, AdditionalInfo: c.AdditionalInfo,
		DisableWeeklyEmail: c.DisableWeeklyEmail, DisableBusinessReport: c.DisableBusinessReport,
	}
}

func toProtoStatus(s domain.ReportStatus) categoriesv1.ReportStatus {
	switch s {
	case domain.StatusGenerating:
		return categoriesv1.ReportStatus_REPORT_STATUS_GENERATING
	case domain.StatusReady:
		return categoriesv1.ReportStatus_REPORT_STATUS_READY
	case domain.StatusFailed:
		return categoriesv1.ReportStatus_REPORT_STATUS_FAILED
	case domain.StatusNoWebsite:
		return categoriesv1.ReportStatus_REPORT_STATUS_NO_WEBSITE
	}
	return categoriesv1.ReportStatus_REPORT_STATUS_UNSPECIFIED
}

func toProtoReport(r domain.Report) *categoriesv1.Report {
	p := &categoriesv1.Report{
		Id: r.ID, Status: toProtoStatus(r.Status), ProgressPercent: int32(r.Progress), SiteUrl: r.SiteURL,
		ProgressStep: r.Step, ErrorMessage: r.Error, Summary: r.Summary,
		Insights: toProtoInsights(r.Insights), Ideas: toProtoIdeas(r.Ideas),
	}
	if !r.CreatedAt.IsZero() {
		p.CreateTime = timestamppb.New(r.CreatedAt)
	}
	if r.Review != nil {
		p.Score = int32(r.Review.Score)
		p.Band = string(domain.BandOf(r.Review.Score))
		p.Checks = toProtoChecks(r.Review.Checks)
		p.Findings = toProtoFindings(r.Review.Findings)
		p.Speed = toProtoSpeed(r.Review.Speed)
		for _, c := range r.Review.Competitors {
			p.Competitors = append(p.Competitors, &categoriesv1.CompetitorScore{
				SiteUrl: c.SiteURL, Reviewed: c.Reviewed, ErrorMessage: c.Error, Score: int32(c.Score),
				Band: bandIf(c), Wins: c.Wins,
			})
		}
	}
	return p
}

// bandIf is a reviewed competitor's band; one not read has none.
func bandIf(c domain.CompetitorReview) string {
	if !c.Reviewed {
		return ""
	}
	return string(domain.BandOf(c.Score))
}

func toProtoSpeed(s *domain.Speed) *categoriesv1.Speed {
	if s == nil {
		return nil
	}
	return &categoriesv1.Speed{
		Measured: s.Measured, Reason: s.Reason, Score: int32(s.Score), Runs: int32(s.Runs),
		FcpMs: s.FCPMs, LcpMs: s.LCPMs, TbtMs: s.TBTMs, SpeedIndexMs: s.SpeedIndexMs, InpMs: s.INPMs,
		Cls: s.CLS, TotalBytes: s.Bytes, Painted: s.Painted, LcpElement: s.LCPElement, Shifted: s.Shifted,
		Ratings: s.Ratings,
	}
}

func toProtoChecks(cs []domain.CheckResult) []*categoriesv1.CheckResult {
	out := make([]*categoriesv1.CheckResult, 0, len(cs))
	for _, c := range cs {
		out = append(out, &categoriesv1.CheckResult{Check: c.Check, Name: review.CheckName(c.Check), Group: c.Group,
			Weight: int32(c.Weight), Earned: int32(c.Earned)})
	}
	return out
}

func toProtoFindings(fs []domain.Finding) []*categoriesv1.Finding {
	out := make([]*categoriesv1.Finding, 0, len(fs))
	for _, f := range fs {
		out = append(out, &categoriesv1.Finding{
			Id: f.ID, Group: f.Group, Check: f.Check, Title: f.Title, Url: f.URL, Element: f.Element,
			Why: f.Why, Fix: f.Fix, PointsLost: int32(f.PointsLost), State: f.State, Places: toProtoPlaces(f.Places),
		})
	}
	return out
}

func toProtoPlaces(ps []domain.Place) []*categoriesv1.FindingPlace {
	var out []*categoriesv1.FindingPlace
	for _, p := range ps {
		out = append(out, &categoriesv1.FindingPlace{Url: p.URL, Element: p.Element, Fix: p.Fix})
	}
	return out
}

func toProtoInsights(in []domain.Insight) []*categoriesv1.Insight {
	out := make([]*categoriesv1.Insight, 0, len(in))
	for _, i := range in {
		out = append(out, &categoriesv1.Insight{Id: i.ID, Text: i.Text, Evidence: i.Evidence})
	}
	return out
}

func toProtoIdea(i domain.Idea) *categoriesv1.Idea {
	return &categoriesv1.Idea{
		Id: i.ID, Title: i.Title, WhyNow: i.WhyNow, Channel: i.Channel, SubjectLine: i.SubjectLine,
		Body: i.Body, Products: i.Products, Timing: i.Timing, CreateTime: timestamppb.New(i.CreatedAt),
	}
}

func toProtoIdeas(ideas []domain.Idea) []*categoriesv1.Idea {
	out := make([]*categoriesv1.Idea, 0, len(ideas))
	for _, i := range ideas {
		out = append(out, toProtoIdea(i))
	}
	return out
}

// ListCatalogueProducts lists the products on the store's website.
func (s *Server) ListCatalogueProducts(ctx context.Context, req *categoriesv1.ListCatalogueProductsRequest) (*categoriesv1.ListCatalogueProductsResponse, error) {
	who, _ := caller(ctx)
	ps, err := s.App.CatalogueProducts(ctx, who, req.GetCategoryId())
	if err != nil {
		return nil, s.toStatus(ctx, err, catalogueRules...)
	}
	out := &categoriesv1.ListCatalogueProductsResponse{Products: make([]*categoriesv1.CatalogueProduct, 0, len(ps))}
	for _, p := range ps {
		out.Products = append(out.Products, toProtoProduct(p))
	}
	return out, nil
}

// GetProductImage reads a catalogue product's main photo.
func (s *Server) GetProductImage(ctx context.Context, req *categoriesv1.GetProductImageRequest) (*categoriesv1.GetProductImageResponse, error) {
	who, _ := caller(ctx)
	p, data, err := s.App.ProductImage(ctx, who, req.GetCategoryId(), req.GetProductId())
	if err != nil {
		return nil, s.toStatus(ctx, err, catalogueRules...)
	}
	return &categoriesv1.GetProductImageResponse{Product: toProtoProduct(p), Content: data}, nil
}

func toProtoProduct(p domain.Product) *categoriesv1.CatalogueProduct {
	return &categoriesv1.CatalogueProduct{Id: p.ID, Name: p.Name, Url: p.URL, Price: p.Price,
		Currency: p.Currency, ImageUrls: p.ImageURLs}
}

// CheckCategoryAccess answers stores, studio and the gateway with the rule
// every category call applies (app.CheckAccess), and names the caller, so
// the gateway can bound the report streams each user holds open and a
// cache of the answer can be dropped when the caller's roles change.
func (s *Server) CheckCategoryAccess(ctx context.Context, req *categoriesv1.CheckCategoryAccessRequest) (*categoriesv1.CheckCategoryAccessResponse, error) {
	who, _ := caller(ctx)
	if err := s.App.CheckAccess(ctx, who, req.GetCategoryId()); err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &categoriesv1.CheckCategoryAccessResponse{UserId: who.UID}, nil
}
