package gateway

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"
)

// wooCallbackMaxBytes bounds the key callback's body: five short fields
// (../shared/research/woocommerce.md §1 "Callback POST").
const wooCallbackMaxBytes = 4 << 10

// mountWooCommerce adds the routes WooCommerce and the browser reach
// directly while a store is connected: the key callback WooCommerce POSTs
// (server to server) and the return_url the browser comes back to. They
// carry no bearer token; the stores service checks the one-use state.
func mountWooCommerce(root *http.ServeMux, stores storesv1.StoresServiceClient, webURL string, maxWebhook int64) {
	root.HandleFunc("POST /webhooks/woocommerce/{categoryId}", func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > maxWebhook {
			writeJSONError(w, http.StatusRequestEntityTooLarge, codes.InvalidArgument, "The request body is too large.")
			return
		}
		// The signature covers the body byte for byte, so it is passed on raw.
		payload, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxWebhook))
		if err != nil {
			writeBodyError(w, err)
			return
		}
		h := headerText{h: r.Header}
		req := &storesv1.HandleWooCommerceWebhookRequest{CategoryId: r.PathValue("categoryId"), Payload: payload,
			Signature: h.get("X-WC-Webhook-Signature"), Topic: h.get("X-WC-Webhook-Topic"),
			DeliveryId: h.get("X-WC-Webhook-Delivery-ID"), WebhookId: h.get("X-WC-Webhook-ID"),
			Source: h.get("X-WC-Webhook-Source")}
		if h.refuse(w) {
			return
		}
		if _, err := stores.HandleWooCommerceWebhook(r.Context(), req); err != nil {
			writeError(r.Context(), nil, nil, w, r, err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"received":true}` + "\n"))
	})
	root.HandleFunc("POST /connections/woocommerce/callback", func(w http.ResponseWriter, r *http.Request) {
		// WooCommerce keeps the key only on exactly 200 (§1), so every
		// refusal here is a 4xx it reads as "delete the key".
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, wooCallbackMaxBytes))
		if err != nil {
			writeBodyError(w, err)
			return
		}
		var cb struct {
			KeyID          json.Number `json:"key_id"`
			UserID         string      `json:"user_id"`
			ConsumerKey    string      `json:"consumer_key"`
			ConsumerSecret string      `json:"consumer_secret"`
			KeyPermissions string      `json:"key_permissions"`
		}
		dec := json.NewDecoder(strings.NewReader(string(body)))
		dec.UseNumber()
		if err := dec.Decode(&cb); err != nil {
			writeJSONError(w, http.StatusBadRequest, codes.InvalidArgument, "The callback body is not WooCommerce's key JSON.")
			return
		}
		keyID, err := cb.KeyID.Int64()
		if err != nil || keyID <= 0 {
			writeJSONError(w, http.StatusBadRequest, codes.InvalidArgument, "key_id must be a positive number.")
			return
		}
		_, err = stores.ReceiveWooCommerceKeys(r.Context(), &storesv1.ReceiveWooCommerceKeysRequest{
			State: cb.UserID, KeyId: keyID, ConsumerKey: cb.ConsumerKey, ConsumerSecret: cb.ConsumerSecret,
			KeyPermissions: cb.KeyPermissions,
		})
		if err != nil {
			writeError(r.Context(), nil, nil, w, r, err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(`{"received":true}` + "\n"))
	})
	root.HandleFunc("GET /connections/woocommerce/return", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		res, err := stores.ReturnWooCommerce(r.Context(), &storesv1.ReturnWooCommerceRequest{
			State: q.Get("user_id"), Success: q.Get("success")})
		if err != nil {
			// A person's browser is on this route: back to the app with a
			// message, never a JSON error.
			msg := unavailableMessage
			if status.Code(err) == codes.NotFound {
				msg = "This connection link has expired. Please start again from Connections."
			}
			http.Redirect(w, r, strings.TrimRight(webURL, "/")+"/connections?"+
				url.Values{"woocommerce": {"error"}, "message": {msg}}.Encode(), http.StatusFound)
			return
		}
		http.Redirect(w, r, res.GetRedirectUrl(), http.StatusFound)
	})
}
