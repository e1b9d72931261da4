package gateway

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/codes"

	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"
)

// importPattern is ImportOrders' REST route (the proto's HTTP rule).
const importPattern = "/internal/categories/{categoryId}" + importPathSuffix

// importPiece is how much of an export one UploadOrders message carries.
const importPiece = 256 << 10

// importOrders serves ImportOrders' REST route through the streaming
// UploadOrders: the JSON body is read as it arrives and the "csv" string
// goes on in pieces, so an upload holds one piece here rather than the
// whole file three times over (grpc-gateway's mapping holds the body, its
// decoded text and the gRPC message). The body and the answers are
// ImportOrders' own. A format named after the file (Go's encoding/json
// writes a map's keys in order, "csv" first) follows it in a message of
// its own.
func importOrders(mux *runtime.ServeMux, stores storesv1.StoresServiceClient) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, err := runtime.AnnotateContext(r.Context(), mux, r, storesv1.StoresService_ImportOrders_FullMethodName,
			runtime.WithHTTPPathPattern(importPattern))
		if err != nil {
			writeError(r.Context(), mux, nil, w, r, err)
			return
		}
		// Cancelling ends the upload: the service stores nothing of it.
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		u := &upload{ctx: ctx, stores: stores, categoryID: r.PathValue("categoryId")}
		res, err := u.send(bodyReader{r.Body, u})
		switch {
		case u.bodyErr != nil:
			cancel()
			writeBodyError(w, u.bodyErr)
		case errors.Is(err, errBadJSON):
			cancel()
			writeJSONError(w, http.StatusBadRequest, codes.InvalidArgument, "The request body is not valid JSON for this call: "+
				strings.TrimPrefix(err.Error(), errBadJSON.Error()+": ")+".")
		case err != nil:
			// The service may answer before the body is all sent (a store
			// already importing): the rest is read and dropped first, since
			// a client still writing may not read an answer it did not wait
			// for.
			_, _ = io.Copy(io.Discard, r.Body)
			writeError(ctx, mux, nil, w, r, err)
		default:
			_, out := runtime.MarshalerForRequest(mux, r)
			body, err := out.Marshal(res.GetResult())
			if err != nil {
				writeError(ctx, mux, out, w, r, err)
				return
			}
			w.Header().Set("Content-Type", out.ContentType(res.GetResult()))
			_, _ = w.Write(body)
		}
	}
}

// upload is one import on its way to the stores service.
type upload struct {
	ctx        context.Context
	stores     storesv1.StoresServiceClient
	categoryID string
	format     string
	stream     storesv1.StoresService_UploadOrdersClient
	// bodyErr is why the body could not be read (too large, too slow).
	bodyErr error
}

// send reads the body, streams the file and returns the service's answer.
func (u *upload) send(body io.Reader) (*storesv1.UploadOrdersResponse, error) {
	b, err := newJSONBody(body)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for {
		key, ok, err := b.key()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if seen[key] {
			return nil, badJSON("%q appears twice", key)
		}
		seen[key] = true
		switch key {
		case "format":
			if u.format, err = b.stringValue(key); err != nil {
				return nil, err
			}
			if u.stream != nil {
				if err := u.stream.Send(&storesv1.UploadOrdersRequest{Format: u.format}); err != nil {
					return nil, u.serviceError(err)
				}
			}
		case "csv":
			if err := b.longString(key, importPiece, u.piece); err != nil {
				return nil, u.serviceError(err)
			}
		case "categoryId", "category_id":
			// The path names the business, as in the mapping.
			if _, err := b.stringValue(key); err != nil {
				return nil, err
			}
		default:
			if err := b.skipValue(); err != nil {
				return nil, err
			}
		}
	}
	if err := u.start(); err != nil {
		return nil, u.serviceError(err)
	}
	return u.stream.CloseAndRecv()
}

// start opens the stream with its first message, once.
func (u *upload) start() error {
	if u.stream != nil {
		return nil
	}
	s, err := u.stores.UploadOrders(u.ctx)
	if err != nil {
		return err
	}
	u.stream = s
	return s.Send(&storesv1.UploadOrdersRequest{CategoryId: u.categoryID, Format: u.format})
}

// piece sends the file's next bytes.
func (u *upload) piece(p []byte) error {
	if err := u.start(); err != nil {
		return err
	}
	return u.stream.Send(&storesv1.UploadOrdersRequest{Csv: p})
}

// serviceError is the service's answer when it ended the upload early (a
// send sees only io.EOF then: the status comes with the response), else err.
func (u *upload) serviceError(err error) error {
	if errors.Is(err, io.EOF) && u.stream != nil {
		if _, rerr := u.stream.CloseAndRecv(); rerr != nil {
			return rerr
		}
	}
	return err
}

// bodyReader keeps the request body's own read error (too large, too
// slow, cut off), so it is answered as such rather than as the service's.
type bodyReader struct {
	r io.Reader
	u *upload
}

func (b bodyReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF {
		b.u.bodyErr = err
	}
	return n, err
}
