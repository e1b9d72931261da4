// Package grpcerr builds the gRPC errors services return for a client's
// mistakes, with the offending field attached, so the gateway can answer 4xx
// with a message a person can act on.
package grpcerr

import (
	"context"
	"errors"
	"log/slog"

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

// Internal logs err with its detail and returns a bare Internal error, so no
// SQL or stack ever reaches a client.
func Internal(ctx context.Context, log *slog.Logger, err error) error {
	if errors.Is(err, context.Canceled) {
		return status.Error(codes.Canceled, "request cancelled")
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return status.Error(codes.DeadlineExceeded, "request took too long")
	}
	log.ErrorContext(ctx, "internal error", "err", err)
	return status.Error(codes.Internal, "internal error")
}
