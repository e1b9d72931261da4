package gateway

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

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
	root.HandleFunc("GET "+shopifyCookiePath+"/authorize", func(w http.ResponseWriter, r *http.Request) {
		state := r.URL.Query().Get("state")
		res, err := stores.AuthorizeShopify(r.Context(), &storesv1.AuthorizeShopifyRequest{State: state})
		if status.Code(err) == codes.NotFound {
			redirectToWeb(w, r, webURL, status.Convert(err).Message())
			return
		}
		if err != nil {
			redirectToWeb(w, r, webURL, unavailableMessage)
			return
		}
		http.SetCookie(w, &http.Cookie{Name: shopifyStateCookie, Value: state, Path: shopifyCookiePath,
			MaxAge: 600, HttpOnly: true, Secure: isHTTPS(r), SameSite: http.SameSiteLaxMode})
		http.Redirect(w, r, res.GetAuthorizeUrl(), http.StatusFound)
	})
	root.HandleFunc("GET "+shopifyCookiePath+"/callback", func(w http.ResponseWriter, r *http.Request) {
		var browserState string
		if c, err := r.Cookie(shopifyStateCookie); err == nil {
			browserState = c.Value
		}
		res, err := stores.CompleteShopifyConnect(r.Context(), &storesv1.CompleteShopifyConnectRequest{
			RawQuery: r.URL.RawQuery, BrowserState: browserState,
		})
		if err != nil {
			// A person's browser is on this route: send it back to the app
			// with a message rather than showing it a JSON error.
			redirectToWeb(w, r, webURL, unavailableMessage)
			return
		}
		http.SetCookie(w, &http.Cookie{Name: shopifyStateCookie, Value: "", Path: shopifyCookiePath, MaxAge: -1,
			HttpOnly: true, Secure: isHTTPS(r), SameSite: http.SameSiteLaxMode})
		http.Redirect(w, r, res.GetRedirectUrl(), http.StatusFound)
	})
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

// redirectToWeb sends the browser back to Connections with a message, for
// an expired or reused link: a person followed it, not a program. The web
// address is configured, never taken from the request.
func redirectToWeb(w http.ResponseWriter, r *http.Request, webURL, message string) {
	web := strings.TrimRight(webURL, "/")
	http.Redirect(w, r, web+"/connections?"+url.Values{"shopify": {"error"}, "message": {message}}.Encode(), http.StatusFound)
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
