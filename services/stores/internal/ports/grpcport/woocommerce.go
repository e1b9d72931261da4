package grpcport

import (
	"context"
	"errors"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"
	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
)

// wooStatus is toStatus with the WooCommerce calls' own words.
func (s *Server) wooStatus(ctx context.Context, err error) error {
	switch {
	case errors.Is(err, domain.ErrNotConnected):
		return status.Error(codes.FailedPrecondition, "No WooCommerce store is connected.")
	case errors.Is(err, app.ErrWooKeysRefused):
		return status.Error(codes.FailedPrecondition, "The store did not accept the API keys.")
	}
	return s.toStatus(ctx, err)
}

// StartWooCommerceConnect starts connecting a WooCommerce store.
func (s *Server) StartWooCommerceConnect(ctx context.Context, req *storesv1.StartWooCommerceConnectRequest) (*storesv1.StartWooCommerceConnectResponse, error) {
	u, err := s.App.StartWooCommerceConnect(ctx, caller(ctx), req.GetCategoryId(), req.GetStoreUrl())
	if err != nil {
		return nil, s.wooStatus(ctx, err)
	}
	return &storesv1.StartWooCommerceConnectResponse{RedirectUrl: u}, nil
}

// SyncWooCommerce asks for a sync now.
func (s *Server) SyncWooCommerce(ctx context.Context, req *storesv1.SyncWooCommerceRequest) (*storesv1.SyncWooCommerceResponse, error) {
	if err := s.App.SyncWooCommerce(ctx, req.GetCategoryId()); err != nil {
		return nil, s.wooStatus(ctx, err)
	}
	return &storesv1.SyncWooCommerceResponse{}, nil
}

// DisconnectWooCommerce forgets the store's keys.
func (s *Server) DisconnectWooCommerce(ctx context.Context, req *storesv1.DisconnectWooCommerceRequest) (*storesv1.DisconnectWooCommerceResponse, error) {
	if err := s.App.DisconnectWooCommerce(ctx, req.GetCategoryId()); err != nil {
		return nil, s.wooStatus(ctx, err)
	}
	return &storesv1.DisconnectWooCommerceResponse{}, nil
}

// ReceiveWooCommerceKeys takes WooCommerce's key callback.
func (s *Server) ReceiveWooCommerceKeys(ctx context.Context, req *storesv1.ReceiveWooCommerceKeysRequest) (*storesv1.ReceiveWooCommerceKeysResponse, error) {
	err := s.App.ReceiveWooCommerceKeys(ctx, req.GetState(), req.GetKeyId(),
		app.WooKeys{ConsumerKey: req.GetConsumerKey(), ConsumerSecret: req.GetConsumerSecret()}, req.GetKeyPermissions())
	if errors.Is(err, domain.ErrNotFound) {
		return nil, status.Error(codes.NotFound, "This connection link has expired or was already used.")
	}
	if err != nil {
		return nil, s.wooStatus(ctx, err)
	}
	return &storesv1.ReceiveWooCommerceKeysResponse{}, nil
}

// ReturnWooCommerce says where the browser goes back to.
func (s *Server) ReturnWooCommerce(ctx context.Context, req *storesv1.ReturnWooCommerceRequest) (*storesv1.ReturnWooCommerceResponse, error) {
	u, err := s.App.ReturnWooCommerce(ctx, req.GetState(), req.GetSuccess())
	if err != nil {
		return nil, s.wooStatus(ctx, err)
	}
	return &storesv1.ReturnWooCommerceResponse{RedirectUrl: u}, nil
}

// toProtoWoo is the connection as Connections shows it, with what is
// stored of the store (its size, apart from the running sync's progress).
func toProtoWoo(c *app.WooConnection, stored app.StoreCounts) *storesv1.WooCommerceConnection {
	out := &storesv1.WooCommerceConnection{Status: app.StatusNone, Sync: &storesv1.SyncProgress{Phase: app.PhaseIdle},
		Stored: &storesv1.StoreCounts{}}
	if c == nil || c.Status != app.StatusConnected {
		return out
	}
	out.Status, out.StoreUrl, out.Name, out.Currency, out.Timezone = c.Status, c.StoreURL, c.Name, c.Currency, c.Timezone
	out.ConnectedAt = timestamppb.New(c.ConnectedAt)
	out.Stored = &storesv1.StoreCounts{Orders: count(stored.Orders), Products: count(stored.Products),
		Customers: count(stored.Customers)}
	out.Sync = &storesv1.SyncProgress{Phase: c.Progress.Phase, Orders: count(c.Progress.Orders),
		Products: count(c.Progress.Products), Customers: count(c.Progress.Customers),
		Percent: int32(c.Progress.Percent), Error: c.Progress.Error}
	if c.LastSyncedAt != nil {
		out.Sync.LastSyncedAt = timestamppb.New(*c.LastSyncedAt)
	}
	return out
}

// HandleWooCommerceWebhook verifies and applies one delivery.
func (s *Server) HandleWooCommerceWebhook(ctx context.Context, req *storesv1.HandleWooCommerceWebhookRequest) (*storesv1.HandleWooCommerceWebhookResponse, error) {
	err := s.App.HandleWooCommerceWebhook(ctx, app.WooDelivery{CategoryID: req.GetCategoryId(), Topic: req.GetTopic(),
		DeliveryID: req.GetDeliveryId(), Signature: req.GetSignature(), Payload: req.GetPayload()})
	if errors.Is(err, domain.ErrNotFound) {
		return nil, status.Error(codes.NotFound, "No such webhook.")
	}
	if err != nil {
		return nil, s.wooStatus(ctx, err)
	}
	return &storesv1.HandleWooCommerceWebhookResponse{}, nil
}
