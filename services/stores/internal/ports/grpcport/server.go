// Package grpcport is the stores service's gRPC API: it translates requests
// to use cases and domain errors to gRPC statuses, so the gateway can answer
// REST calls with the right HTTP status.
package grpcport

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math"
	"strings"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"

	"uplift.dev/platform/auth"
	"uplift.dev/platform/grpcerr"
	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
)

// PublicMethods carry no user token: the gateway calls them for Shopify's
// redirects and webhooks, which prove themselves (state, HMAC) instead.
var PublicMethods = []string{
	storesv1.StoresService_AuthorizeShopify_FullMethodName,
	storesv1.StoresService_CompleteShopifyConnect_FullMethodName,
	storesv1.StoresService_HandleShopifyWebhook_FullMethodName,
	// WooCommerce's key callback (proven by the one-use state) and the
	// browser's return from the store.
	storesv1.StoresService_ReceiveWooCommerceKeys_FullMethodName,
	storesv1.StoresService_ReturnWooCommerce_FullMethodName,
	// WooCommerce's webhooks, proven by X-WC-Webhook-Signature.
	storesv1.StoresService_HandleWooCommerceWebhook_FullMethodName,
	// Google's OAuth redirect and callback, proven by the one-use state
	// bound to the browser and by PKCE.
	storesv1.StoresService_AuthorizeGA4_FullMethodName,
	storesv1.StoresService_CompleteGA4Connect_FullMethodName,
}

// Server implements storesv1.StoresServiceServer.
type Server struct {
	storesv1.UnimplementedStoresServiceServer
	App *app.App
	Log *slog.Logger
}

func caller(ctx context.Context) domain.Caller {
	c, _ := auth.FromContext(ctx)
	return domain.Caller{UID: c.UID, Admin: c.Admin}
}

// ImportOrders imports an order export sent whole.
func (s *Server) ImportOrders(ctx context.Context, req *storesv1.ImportOrdersRequest) (*storesv1.ImportOrdersResponse, error) {
	res, err := s.App.ImportOrders(ctx, caller(ctx), req.GetCategoryId(), wholeFile{strings.NewReader(req.GetCsv()), req.GetFormat()})
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return toProtoImport(res), nil
}

// UploadOrders imports an order export read as its pieces arrive.
func (s *Server) UploadOrders(stream grpc.ClientStreamingServer[storesv1.UploadOrdersRequest, storesv1.UploadOrdersResponse]) error {
	ctx := stream.Context()
	first, err := stream.Recv()
	if errors.Is(err, io.EOF) {
		return status.Error(codes.InvalidArgument, "The upload named no business.")
	}
	if err != nil {
		return err
	}
	file := &uploadReader{stream: stream, piece: first.GetCsv(), format: first.GetFormat()}
	res, err := s.App.ImportOrders(ctx, caller(ctx), first.GetCategoryId(), file)
	if err != nil {
		if file.err != nil && !errors.Is(file.err, io.EOF) {
			return file.err // the upload broke off: its own status, not the import's
		}
		return s.toStatus(ctx, err)
	}
	return stream.SendAndClose(&storesv1.UploadOrdersResponse{Result: toProtoImport(res)})
}

// wholeFile is an export that came in one message.
type wholeFile struct {
	*strings.Reader
	format string
}

func (f wholeFile) Format() string { return f.format }

// uploadReader reads an upload's pieces as one file. The format is the
// first a message names: a JSON body may name it after the file.
type uploadReader struct {
	stream grpc.ClientStreamingServer[storesv1.UploadOrdersRequest, storesv1.UploadOrdersResponse]
	piece  []byte
	format string
	err    error
}

func (r *uploadReader) Format() string { return r.format }

func (r *uploadReader) Read(p []byte) (int, error) {
	for len(r.piece) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		m, err := r.stream.Recv()
		if err != nil {
			r.err = err
			continue
		}
		r.piece = m.GetCsv()
		if r.format == "" {
			r.format = m.GetFormat()
		}
	}
	n := copy(p, r.piece)
	r.piece = r.piece[n:]
	return n, nil
}

func toProtoImport(res app.ImportResult) *storesv1.ImportOrdersResponse {
	return &storesv1.ImportOrdersResponse{Orders: int32(res.Orders), FirstDay: res.FirstDay.String(),
		LastDay: res.LastDay.String(), Currency: res.Currency, Warnings: res.Warnings}
}

// GetMetrics returns a range's numbers.
func (s *Server) GetMetrics(ctx context.Context, req *storesv1.GetMetricsRequest) (*storesv1.GetMetricsResponse, error) {
	a, err := s.App.GetAnalytics(ctx, req.GetCategoryId(), req.GetFrom(), req.GetTo(), int(req.GetLastDays()),
		app.AnalyticsExtras{Previous: req.GetWithPrevious(), TopProducts: int(req.GetTopProducts())})
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	m := a.Metrics
	out := &storesv1.GetMetricsResponse{Currency: m.Currency, Timezone: m.Timezone, Source: m.Source,
		Days: make([]*storesv1.DayMetrics, 0, len(m.Days)), Totals: toProtoDay(m.Totals, m.Currency, false, m.Platform),
		From: m.From.String(), To: m.To.String(), Today: m.Today.String()}
	if m.FirstOrderDay != (domain.Date{}) {
		out.FirstOrderDay = m.FirstOrderDay.String()
	}
	for _, d := range m.Days {
		pd := toProtoDay(d, m.Currency, true, m.Platform)
		if v, ok := m.Shopify[d.Date]; ok {
			pd.ShopifyTotalSales = wrapperspb.String(domain.FormatMoney(v, m.Currency))
		}
		out.Days = append(out.Days, pd)
	}
	if a.Previous != nil {
		out.PreviousTotals = toProtoDay(*a.Previous, m.Currency, false, m.Platform)
		out.PreviousFrom, out.PreviousTo = a.PreviousFrom.String(), a.PreviousTo.String()
	}
	out.TopProducts = toProtoProducts(a.Top, m.Currency)
	ga4Metrics(out, m)
	return out, nil
}

func toProtoProducts(ps []app.ProductSales, currency string) []*storesv1.ProductSales {
	out := make([]*storesv1.ProductSales, 0, len(ps))
	for _, p := range ps {
		out = append(out, &storesv1.ProductSales{Title: p.Title, Quantity: count(p.Quantity),
			GrossSales: domain.FormatMoney(p.Gross, currency), NetSales: domain.FormatMoney(p.NetSales, currency)})
	}
	return out
}

// toProtoDay is one day's (or a range's) numbers; the average order value
// follows the platform's rule (domain.AverageOrderValueFor).
func toProtoDay(d domain.DayTotals, currency string, withDate bool, platform domain.Platform) *storesv1.DayMetrics {
	money := func(m domain.Money) string { return domain.FormatMoney(m, currency) }
	pd := &storesv1.DayMetrics{
		Orders: count(d.Orders), GrossSales: money(d.Gross), Discounts: money(d.Discounts), Returns: money(d.Returns),
		NetSales: money(d.Net()), Shipping: money(d.Shipping), Taxes: money(d.Taxes), TotalSales: money(d.TotalSales()),
		Duties: money(d.Duties), AdditionalFees: money(d.AdditionalFees),
	}
	if withDate {
		pd.Date = d.Date.String()
	}
	if d.Sessions != nil {
		pd.Sessions = wrapperspb.Int32(count(*d.Sessions))
	}
	if aov, ok := domain.AverageOrderValueFor(platform, d); ok {
		pd.AverageOrderValue = wrapperspb.String(money(aov))
	}
	if cr, ok := domain.ConversionPercent(d); ok {
		pd.ConversionRate = wrapperspb.String(cr)
	}
	return pd
}

// GetTopProducts ranks products by net sales.
func (s *Server) GetTopProducts(ctx context.Context, req *storesv1.GetTopProductsRequest) (*storesv1.GetTopProductsResponse, error) {
	currency, ps, err := s.App.TopProducts(ctx, req.GetCategoryId(), req.GetFrom(), req.GetTo(), int(req.GetLimit()))
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &storesv1.GetTopProductsResponse{Currency: currency, Products: toProtoProducts(ps, currency)}, nil
}

// GetDailyReport compares yesterday with the week before.
func (s *Server) GetDailyReport(ctx context.Context, req *storesv1.GetDailyReportRequest) (*storesv1.GetDailyReportResponse, error) {
	r, err := s.App.GetDailyReport(ctx, req.GetCategoryId(), req.GetDate())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &storesv1.GetDailyReportResponse{Report: toProtoReport(r)}, nil
}

// GetConnections returns the connections.
func (s *Server) GetConnections(ctx context.Context, req *storesv1.GetConnectionsRequest) (*storesv1.GetConnectionsResponse, error) {
	c, err := s.App.GetConnections(ctx, req.GetCategoryId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	out := &storesv1.GetConnectionsResponse{Shopify: &storesv1.ShopifyConnection{Status: app.StatusNone,
		Sync: &storesv1.SyncProgress{Phase: app.PhaseIdle}}}
	if sc := c.Shopify; sc != nil {
		status := sc.Status
		if status == app.StatusDisconnected {
			status = app.StatusNone
		}
		out.Shopify = &storesv1.ShopifyConnection{Status: status, Shop: sc.Shop, Name: sc.Name,
			Currency: sc.Currency, Timezone: sc.Timezone, ConnectedAt: timestamppb.New(sc.ConnectedAt),
			SessionsAvailable: sc.SessionsAvailable,
			Stored: &storesv1.StoreCounts{Orders: count(c.Stored.Orders), Products: count(c.Stored.Products),
				Customers: count(c.Stored.Customers)},
			Sync: &storesv1.SyncProgress{Phase: sc.Progress.Phase, Orders: count(sc.Progress.Orders),
				Products: count(sc.Progress.Products), Customers: count(sc.Progress.Customers),
				Percent: int32(sc.Progress.Percent), Error: sc.Progress.Error}}
		if sc.LastSyncedAt != nil {
			out.Shopify.Sync.LastSyncedAt = timestamppb.New(*sc.LastSyncedAt)
		}
	}
	out.Woocommerce = toProtoWoo(c.WooCommerce, c.WooStored)
	out.Ga4 = toProtoGA4(c.GA4)
	if imp := c.LastImport; imp != nil {
		out.LastImport = &storesv1.OrderImport{Orders: int32(imp.Orders), FirstDay: imp.FirstDay.String(),
			LastDay: imp.LastDay.String(), Currency: imp.Currency, ImportedAt: timestamppb.New(imp.ImportedAt)}
	}
	return out, nil
}

// StartShopifyConnect starts connecting a shop.
func (s *Server) StartShopifyConnect(ctx context.Context, req *storesv1.StartShopifyConnectRequest) (*storesv1.StartShopifyConnectResponse, error) {
	u, err := s.App.StartShopifyConnect(ctx, caller(ctx), req.GetCategoryId(), req.GetShop())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &storesv1.StartShopifyConnectResponse{RedirectUrl: u}, nil
}

// SyncShopify asks for a sync now.
func (s *Server) SyncShopify(ctx context.Context, req *storesv1.SyncShopifyRequest) (*storesv1.SyncShopifyResponse, error) {
	if err := s.App.SyncShopify(ctx, req.GetCategoryId()); err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &storesv1.SyncShopifyResponse{}, nil
}

// DisconnectShopify forgets the shop's token.
func (s *Server) DisconnectShopify(ctx context.Context, req *storesv1.DisconnectShopifyRequest) (*storesv1.DisconnectShopifyResponse, error) {
	if err := s.App.DisconnectShopify(ctx, req.GetCategoryId()); err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &storesv1.DisconnectShopifyResponse{}, nil
}

// AuthorizeShopify returns Shopify's consent page for a live state.
func (s *Server) AuthorizeShopify(ctx context.Context, req *storesv1.AuthorizeShopifyRequest) (*storesv1.AuthorizeShopifyResponse, error) {
	u, err := s.App.AuthorizeShopify(ctx, req.GetState())
	if errors.Is(err, domain.ErrNotFound) {
		return nil, status.Error(codes.NotFound, "This connection link has expired or was already used. Please start again from Connections.")
	}
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &storesv1.AuthorizeShopifyResponse{AuthorizeUrl: u}, nil
}

// CompleteShopifyConnect checks Shopify's callback.
func (s *Server) CompleteShopifyConnect(ctx context.Context, req *storesv1.CompleteShopifyConnectRequest) (*storesv1.CompleteShopifyConnectResponse, error) {
	u, err := s.App.CompleteShopifyConnect(ctx, req.GetRawQuery(), req.GetBrowserState())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &storesv1.CompleteShopifyConnectResponse{RedirectUrl: u}, nil
}

// HandleShopifyWebhook verifies and queues one delivery.
func (s *Server) HandleShopifyWebhook(ctx context.Context, req *storesv1.HandleShopifyWebhookRequest) (*storesv1.HandleShopifyWebhookResponse, error) {
	err := s.App.ReceiveWebhook(ctx, app.Webhook{Payload: req.GetPayload(), HMAC: req.GetHmac(), Topic: req.GetTopic(),
		Shop: req.GetShopDomain(), WebhookID: req.GetWebhookId(), EventID: req.GetEventId(),
		APIVersion: req.GetApiVersion(), TriggeredAt: req.GetTriggeredAt()})
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &storesv1.HandleShopifyWebhookResponse{}, nil
}

// toStatus maps domain errors to gRPC statuses; anything else is Internal
// and logged, never shown.
func (s *Server) toStatus(ctx context.Context, err error) error {
	var ve *domain.ValidationError
	switch {
	case errors.As(err, &ve):
		return grpcerr.InvalidField(ve.Field, ve.Message)
	case errors.Is(err, domain.ErrNotFound):
		return status.Error(codes.NotFound, "No such business.")
	case errors.Is(err, domain.ErrPermissionDenied):
		return status.Error(codes.PermissionDenied, "You may not see or change this business.")
	case errors.Is(err, domain.ErrNotConnected):
		return status.Error(codes.FailedPrecondition, "No Shopify shop is connected.")
	case errors.Is(err, domain.ErrBadWebhook):
		return status.Error(codes.Unauthenticated, "The webhook signature does not verify.")
	case errors.Is(err, domain.ErrAlreadySent):
		return status.Error(codes.AlreadyExists, "Yesterday's daily report was already sent.")
	case errors.Is(err, domain.ErrNoReportData):
		return status.Error(codes.FailedPrecondition, "This store has no numbers to report yet.")
	case errors.Is(err, domain.ErrImportRunning):
		return status.Error(codes.Aborted, "An import is already running for this store. Please wait for it to finish, then try again.")
	case errors.Is(err, domain.ErrTooManyImports):
		return retryLater("Many stores are importing orders right now. Please try again in a minute.", time.Minute)
	}
	return grpcerr.Internal(ctx, s.Log, err)
}

// retryLater is a 429 whose RetryInfo becomes the gateway's Retry-After.
func retryLater(msg string, wait time.Duration) error {
	st := status.New(codes.ResourceExhausted, msg)
	if d, err := st.WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(wait)}); err == nil {
		st = d
	}
	return st.Err()
}

// SendDailyReport publishes yesterday's report now (admins only).
func (s *Server) SendDailyReport(ctx context.Context, req *storesv1.SendDailyReportRequest) (*storesv1.SendDailyReportResponse, error) {
	day, err := s.App.SendDailyReportNow(ctx, caller(ctx), req.GetCategoryId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &storesv1.SendDailyReportResponse{Date: day.String()}, nil
}

// optString is a wrapper, so "not available" reaches JSON as null.
func optString(v *string) *wrapperspb.StringValue {
	if v == nil {
		return nil
	}
	return wrapperspb.String(*v)
}

// count narrows a count for the API, whose counts are JSON integers (int64
// would be a JSON string); no shop has two billion orders in a range.
func count(n int64) int32 {
	return int32(max(min(n, math.MaxInt32), math.MinInt32))
}

func toProtoReport(r app.DailyReport) *storesv1.DailyReport {
	out := &storesv1.DailyReport{Status: "NO_DATA", Date: r.Date.String(), Currency: r.Currency,
		Timezone: r.Timezone, Source: r.Source, Metrics: []*storesv1.ReportMetric{}}
	if !r.HasData {
		return out
	}
	out.Status = "READY"
	out.Headline, out.Notes, out.BestSeller = r.Headline, r.Notes, r.BestSeller
	out.Summary, out.Action = r.Summary, r.Action
	for _, m := range r.Metrics {
		out.Metrics = append(out.Metrics, &storesv1.ReportMetric{Key: m.Key, Label: m.Label, Formula: m.Formula,
			Value: optString(m.Value), Average: optString(m.Average), ChangePercent: optString(m.ChangePercent), Unusual: m.Unusual})
	}
	return out
}
