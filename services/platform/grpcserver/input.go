package grpcserver

import (
	"context"
	"strings"
	"unicode/utf8"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"

	"uplift.dev/platform/grpcerr"
)

// MaxIDBytes bounds every id field of a request (a field named "id" or
// ending in "_id"). Uplift's ids are uids, UUIDs and Stripe or Shopify ids,
// far shorter; a bigger one can only be a mistake or an attack, and is kept
// out of service code, logs and PostgreSQL. Services check their ids more
// tightly with their own messages ("userId is not a valid user id."); this
// is the floor under all of them, and grpcerr.Internal maps what PostgreSQL
// still refuses (an index holds about 2.7 kB) to InvalidArgument.
const MaxIDBytes = 64 << 10

// checkInput refuses requests that no service can store and that would
// otherwise fail deep inside one as Internal: a NUL character (PostgreSQL
// text cannot hold it), text that is not UTF-8, and an absurdly long id.
// It walks every string of the request, nested messages, lists and maps
// included; bytes fields (raw webhook bodies) are left alone.
func checkInput() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
		if m, ok := req.(proto.Message); ok {
			if err := checkMessage(m.ProtoReflect(), ""); err != nil {
				return nil, err
			}
		}
		return next(ctx, req)
	}
}

func checkMessage(m protoreflect.Message, prefix string) error {
	var err error
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		name := prefix + fd.JSONName()
		switch {
		case fd.IsList():
			l := v.List()
			for i := 0; i < l.Len() && err == nil; i++ {
				err = checkValue(fd, l.Get(i), name)
			}
		case fd.IsMap():
			v.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
				if err = checkString(fd.MapKey(), k.String(), name); err == nil {
					err = checkValue(fd.MapValue(), mv, name)
				}
				return err == nil
			})
		default:
			err = checkValue(fd, v, name)
		}
		return err == nil
	})
	return err
}

func checkValue(fd protoreflect.FieldDescriptor, v protoreflect.Value, name string) error {
	switch fd.Kind() {
	case protoreflect.StringKind:
		return checkString(fd, v.String(), name)
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return checkMessage(v.Message(), name+".")
	}
	return nil
}

func checkString(fd protoreflect.FieldDescriptor, s, name string) error {
	if fd.Kind() != protoreflect.StringKind {
		return nil
	}
	switch {
	case strings.IndexByte(s, 0) >= 0:
		return grpcerr.InvalidField(name, name+" contains a character that is not allowed (NUL).")
	case !utf8.ValidString(s):
		return grpcerr.InvalidField(name, name+" is not valid UTF-8 text.")
	case len(s) > MaxIDBytes && isIDField(fd):
		return grpcerr.InvalidField(name, name+" is too long to be an id.")
	}
	return nil
}

func isIDField(fd protoreflect.FieldDescriptor) bool {
	n := string(fd.Name())
	return n == "id" || strings.HasSuffix(n, "_id")
}

// clipErrors shortens the message of every error a handler returns, and
// the descriptions of its field violations, to grpcerr.MaxMessageRunes: a
// message that quotes the caller's input must not send a megabyte back (or
// into the logs).
func clipErrors() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
		resp, err := next(ctx, req)
		if err == nil {
			return resp, nil
		}
		return resp, clipStatus(err)
	}
}

func clipStatus(err error) error {
	st, ok := status.FromError(err)
	if !ok {
		return err
	}
	p := st.Proto()
	changed := false
	if c := grpcerr.Clip(p.GetMessage()); c != p.GetMessage() {
		p.Message, changed = c, true
	}
	for i, d := range p.GetDetails() {
		var br errdetails.BadRequest
		if d.UnmarshalTo(&br) != nil {
			continue
		}
		clipped := false
		for _, v := range br.GetFieldViolations() {
			if c := grpcerr.Clip(v.GetDescription()); c != v.GetDescription() {
				v.Description, clipped = c, true
			}
		}
		if clipped {
			if a, err := anypb.New(&br); err == nil {
				p.Details[i], changed = a, true
			}
		}
	}
	if !changed {
		return err
	}
	return status.ErrorProto(p)
}
