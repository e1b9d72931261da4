// Package grpcerr builds the gRPC errors services return for a client's
// mistakes, with the offending field attached, so the gateway can answer 4xx
// with a message a person can act on.
package grpcerr

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// InvalidField is an InvalidArgument naming the field and what is wrong.
func InvalidField(field, message string) error {
	st := status.New(codes.InvalidArgument, message)
	if d, err := st.WithDetails(&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{
		{Field: field, Description: message},
	}}); err == nil {
		st = d
	}
	return st.Err()
}

// MaxMessageRunes bounds an error message. Messages are written for people
// and are far shorter; a longer one quotes the caller's input, which must
// not be sent back (or logged) a megabyte at a time.
const MaxMessageRunes = 200

// Clip cuts s to MaxMessageRunes characters, ending in "…" when it was cut.
// The gRPC server applies it to every error message; use it directly only
// where a message is built outside a gRPC call.
func Clip(s string) string {
	if utf8.RuneCountInString(s) <= MaxMessageRunes {
		return s
	}
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == MaxMessageRunes-1 {
			break
		}
		b.WriteRune(r)
		n++
	}
	return b.String() + "…"
}

// Internal logs err with its detail and returns a bare Internal error, so no
// SQL or stack ever reaches a client. PostgreSQL's data exceptions (a value
// it cannot store or compare, such as a NUL byte, text in the wrong encoding
// or a number out of range) and program limits (a value too large for an
// index) come from the request's values, so they are the client's mistake:
// InvalidArgument with a generic message, never Internal.
func Internal(ctx context.Context, log *slog.Logger, err error) error {
	if log == nil {
		// A port built without its logger must still answer, not panic.
		log = slog.Default()
	}
	if errors.Is(err, context.Canceled) {
		return status.Error(codes.Canceled, "request cancelled")
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return status.Error(codes.DeadlineExceeded, "request took too long")
	}
	// A service this one depends on is down or restarting: say so (the
	// gateway answers 503 with Retry-After), as the service itself would.
	if st, ok := status.FromError(err); ok && st.Code() == codes.Unavailable {
		log.WarnContext(ctx, "a service this call needs is unavailable", "err", err)
		return status.Error(codes.Unavailable, "The service is temporarily unavailable. Please try again.")
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) && (strings.HasPrefix(pg.Code, "22") || pg.Code == "54000") {
		log.WarnContext(ctx, "request value refused by the database", "err", err)
		return status.Error(codes.InvalidArgument, "The request contains a value that is not valid.")
	}
	log.ErrorContext(ctx, "internal error", "err", err)
	return status.Error(codes.Internal, "internal error")
}
