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
	"uplift.dev/platform/validation"
)

// checkInput refuses requests that no service can store and that would
// otherwise fail deep inside one as Internal: a NUL character (PostgreSQL
// text cannot hold it), text that is not UTF-8, and text longer than its
// kind's bound (validation.KindOf: ids, emails, names, URLs, tokens…), so
// no megabyte of text reaches service code, logs, PostgreSQL or an event.
// It walks every string of the request, nested messages, lists and maps
// included; bytes fields (raw webhook bodies, images) and documents (an
// order export, bounded by the service that reads it) are left alone.
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
	}
	if kind := validation.KindOf(string(fd.Name())); kind != validation.Document {
		if ve := validation.CheckLength(name, s, kind); ve != nil {
			return grpcerr.InvalidField(ve.Field, ve.Message)
		}
	}
	return nil
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
