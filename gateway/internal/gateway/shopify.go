package gateway

import (
	"context"
	"io"
	"net/http"
	"strings"
	"time"

	"google.golang.org/grpc/codes"

	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"
)

// shopifyStateCookie binds an OAuth state to the browser that started the
// connection: the callback is refused unless the same browser brings it back.
const shopifyStateCookie = "uplift_shopify_state"

// shopifyCookiePath limits the cookie to the two OAuth routes.
const shopifyCookiePath = "/connections/shopify"

// unavailableMessage is what a person sees when the connection could not be
// completed for a reason of ours; the service logged the cause.
const unavailableMessage = "We could not complete the connection just now. Please try again in a minute."

// importPathSuffix and studioUploadSuffix mark the routes that take large
// bodies: order exports, and product photos (25 MB as base64 JSON).
const (
	importPathSuffix   = "/business-data/orders/import"
	studioUploadSuffix = "/studio/images"
)

// mountShopify adds the routes Shopify and the browser reach directly: the
// start of the OAuth dance, its callback and the webhooks. They carry no
// bearer token; the stores service checks the state and HMACs instead.
func mountShopify(root *http.ServeMux, stores storesv1.StoresServiceClient, webURL string, maxWebhook int64) {
	oauthRoutes{platform: "shopify", path: shopifyCookiePath, cookie: shopifyStateCookie,
		authorize: func(ctx context.Context, state string) (string, error) {
			res, err := stores.AuthorizeShopify(ctx, &storesv1.AuthorizeShopifyRequest{State: state})
			return res.GetAuthorizeUrl(), err
		},
		complete: func(ctx context.Context, rawQuery, browserState string) (string, error) {
			res, err := stores.CompleteShopifyConnect(ctx, &storesv1.CompleteShopifyConnectRequest{
				RawQuery: rawQuery, BrowserState: browserState,
			})
			return res.GetRedirectUrl(), err
		},
	}.mount(root, webURL)
	root.HandleFunc("POST /webhooks/shopify", func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > maxWebhook {
			writeJSONError(w, http.StatusRequestEntityTooLarge, codes.InvalidArgument, "The request body is too large.")
			return
		}
		// The HMAC covers the body byte for byte, so it is passed on raw.
		payload, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxWebhook))
		if err != nil {
			writeBodyError(w, err)
			return
		}
		h := headerText{h: r.Header}
		req := &storesv1.HandleShopifyWebhookRequest{
			Payload: payload, Hmac: h.get("X-Shopify-Hmac-Sha256"), Topic: h.get("X-Shopify-Topic"),
			ShopDomain: h.get("X-Shopify-Shop-Domain"), WebhookId: h.get("X-Shopify-Webhook-Id"),
			EventId: h.get("X-Shopify-Event-Id"), ApiVersion: h.get("X-Shopify-API-Version"),
			TriggeredAt: h.get("X-Shopify-Triggered-At"),
		}
		if h.refuse(w) {
			return
		}
		_, err = stores.HandleShopifyWebhook(r.Context(), req)
		if err != nil {
			writeError(r.Context(), nil, nil, w, r, err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"received":true}` + "\n"))
	})
}

func isHTTPS(r *http.Request) bool {
	return r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

// limitBodies applies max to every request body except the order import,
// which may be up to importMax (an export is up to 20 MB of CSV in JSON).
// The import is also given importReadTimeout, rather than the server's read
// timeout, for its body to arrive.
func limitBodies(max, importMax int64, next http.Handler) http.Handler {
	normal, large := limitBody(max, next), limitBody(importMax, next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && (strings.HasSuffix(r.URL.Path, importPathSuffix) || strings.HasSuffix(r.URL.Path, studioUploadSuffix)) {
			// Not supported only outside a real server (httptest recorders).
			_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(importReadTimeout))
			large.ServeHTTP(w, r)
			return
		}
		normal.ServeHTTP(w, r)
	})
}
