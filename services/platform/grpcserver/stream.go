package grpcserver

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// The interceptors of streaming calls (uploads that arrive in pieces): each
// does for a stream what its unary twin does for a call, so a streaming
// method is recovered, observed, authenticated, checked and clipped alike.

func recoveryStream(log *slog.Logger) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, next grpc.StreamHandler) (err error) {
		defer func() {
			if r := recover(); r != nil {
				log.Error("panic in handler", "method", info.FullMethod, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				err = status.Error(codes.Internal, "internal error")
			}
		}()
		return next(srv, ss)
	}
}

func observeStream(log *slog.Logger, m *metrics) grpc.StreamServerInterceptor {
	unary := observe(log, m)
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, next grpc.StreamHandler) error {
		_, err := unary(ss.Context(), nil, &grpc.UnaryServerInfo{FullMethod: info.FullMethod}, func(_ context.Context, _ any) (any, error) {
			return nil, next(srv, ss)
		})
		return err
	}
}

func clipErrorsStream() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, next grpc.StreamHandler) error {
		if err := next(srv, ss); err != nil {
			return clipStatus(err)
		}
		return nil
	}
}

// checkInputStream checks every message the handler reads, as checkInput
// checks a call's one request.
func checkInputStream() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, next grpc.StreamHandler) error {
		return next(srv, checkedStream{ss})
	}
}

type checkedStream struct{ grpc.ServerStream }

func (s checkedStream) RecvMsg(m any) error {
	if err := s.ServerStream.RecvMsg(m); err != nil {
		return err
	}
	if pm, ok := m.(proto.Message); ok {
		return checkMessage(pm.ProtoReflect(), "")
	}
	return nil
}
