package grpcport

import (
	"context"
	"errors"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"
	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
)

// ga4Status maps the GA4 calls' own errors; the rest as every call's.
func (s *Server) ga4Status(ctx context.Context, err error) error {
	var api *app.GoogleAPIError
	switch {
	case errors.Is(err, app.ErrGA4NotConnected):
		return status.Error(codes.FailedPrecondition, "Google Analytics 4 is not connected.")
	case errors.Is(err, app.ErrGA4Reauthorize):
		return status.Error(codes.FailedPrecondition, "Google no longer accepts Uplift's access. Reconnect Google Analytics 4.")
	case errors.As(err, &api) && api.Status == "RESOURCE_EXHAUSTED":
		return status.Error(codes.ResourceExhausted, "Google Analytics' request quota is used up. Please try again later.")
	case errors.As(err, &api):
		s.Log.WarnContext(ctx, "google analytics call failed", "err", err)
		return status.Error(codes.Unavailable, "Google Analytics did not answer. Please try again in a minute.")
	}
	return s.toStatus(ctx, err)
}

// StartGA4Connect starts connecting Google Analytics 4.
func (s *Server) StartGA4Connect(ctx context.Context, req *storesv1.StartGA4ConnectRequest) (*storesv1.StartGA4ConnectResponse, error) {
	u, err := s.App.StartGA4Connect(ctx, caller(ctx), req.GetCategoryId())
	if err != nil {
		return nil, s.ga4Status(ctx, err)
	}
	return &storesv1.StartGA4ConnectResponse{RedirectUrl: u}, nil
}

// AuthorizeGA4 returns Google's consent page for a live state.
func (s *Server) AuthorizeGA4(ctx context.Context, req *storesv1.AuthorizeGA4Request) (*storesv1.AuthorizeGA4Response, error) {
	u, err := s.App.AuthorizeGA4(ctx, req.GetState())
	if errors.Is(err, domain.ErrNotFound) {
		return nil, status.Error(codes.NotFound, "This connection link has expired or was already used. Please start again from Connections.")
	}
	if err != nil {
		return nil, s.ga4Status(ctx, err)
	}
	return &storesv1.AuthorizeGA4Response{AuthorizeUrl: u}, nil
}

// CompleteGA4Connect checks Google's callback.
func (s *Server) CompleteGA4Connect(ctx context.Context, req *storesv1.CompleteGA4ConnectRequest) (*storesv1.CompleteGA4ConnectResponse, error) {
	u, err := s.App.CompleteGA4Connect(ctx, req.GetRawQuery(), req.GetBrowserState())
	if err != nil {
		return nil, s.ga4Status(ctx, err)
	}
	return &storesv1.CompleteGA4ConnectResponse{RedirectUrl: u}, nil
}

// ListGA4Properties lists the Google user's properties.
func (s *Server) ListGA4Properties(ctx context.Context, req *storesv1.ListGA4PropertiesRequest) (*storesv1.ListGA4PropertiesResponse, error) {
	ps, err := s.App.ListGA4Properties(ctx, req.GetCategoryId())
	if err != nil {
		return nil, s.ga4Status(ctx, err)
	}
	out := &storesv1.ListGA4PropertiesResponse{Properties: make([]*storesv1.GA4Property, 0, len(ps))}
	for _, p := range ps {
		out.Properties = append(out.Properties, &storesv1.GA4Property{PropertyId: p.ID, DisplayName: p.Name, AccountName: p.Account})
	}
	return out, nil
}

// SelectGA4Property picks the property.
func (s *Server) SelectGA4Property(ctx context.Context, req *storesv1.SelectGA4PropertyRequest) (*storesv1.SelectGA4PropertyResponse, error) {
	c, err := s.App.SelectGA4Property(ctx, req.GetCategoryId(), req.GetPropertyId(), req.GetSessionsSource())
	if err != nil {
		return nil, s.ga4Status(ctx, err)
	}
	return &storesv1.SelectGA4PropertyResponse{Ga4: toProtoGA4(c)}, nil
}

// SyncGA4 asks for a refresh now.
func (s *Server) SyncGA4(ctx context.Context, req *storesv1.SyncGA4Request) (*storesv1.SyncGA4Response, error) {
	if err := s.App.SyncGA4(ctx, req.GetCategoryId()); err != nil {
		return nil, s.ga4Status(ctx, err)
	}
	return &storesv1.SyncGA4Response{}, nil
}

// DisconnectGA4 revokes the token and forgets it.
func (s *Server) DisconnectGA4(ctx context.Context, req *storesv1.DisconnectGA4Request) (*storesv1.DisconnectGA4Response, error) {
	if err := s.App.DisconnectGA4(ctx, req.GetCategoryId()); err != nil {
		return nil, s.ga4Status(ctx, err)
	}
	return &storesv1.DisconnectGA4Response{}, nil
}

// toProtoGA4 is the connection as Connections shows it.
func toProtoGA4(c *app.GA4Connection) *storesv1.GA4Connection {
	out := &storesv1.GA4Connection{Status: app.StatusNone}
	if c == nil || c.Status == app.GA4Disconnected {
		return out
	}
	out.Status, out.PropertyId, out.PropertyName = c.Status, c.PropertyID, c.PropertyName
	out.Timezone, out.Currency, out.SessionsSource = c.PropertyTimezone, c.PropertyCurrency, string(c.SessionsSource)
	out.ConnectedAt = timestamppb.New(c.ConnectedAt)
	if c.LastRefreshedAt != nil {
		out.LastRefreshedAt = timestamppb.New(*c.LastRefreshedAt)
	}
	if c.QuotaUntil != nil {
		out.QuotaUntil = timestamppb.New(*c.QuotaUntil)
	}
	out.Sampled, out.Thresholded, out.Error = c.Sampled, c.Thresholded, c.Error
	return out
}

// ga4Metrics fills in where a range's sessions come from, and GA4's notes.
func ga4Metrics(out *storesv1.GetMetricsResponse, m app.Metrics) {
	out.SessionsSource = string(m.SessionsSource)
	if m.GA4 == nil {
		return
	}
	out.Ga4Property = m.GA4.PropertyName
	if m.GA4.Purchases != nil {
		out.Ga4Purchases = wrapperspb.Int32(count(*m.GA4.Purchases))
	}
	out.Ga4Notes = domain.GA4Notes(m.GA4.PropertyName, m.GA4.Purchases, m.Totals.Orders, m.Source != app.SourceNone,
		m.GA4.Timezone, m.Timezone, m.GA4.Sampled, m.GA4.Thresholded)
}
