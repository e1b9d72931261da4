package grpcserver

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"uplift.dev/platform/grpcerr"
	"uplift.dev/platform/validation"
)

// The well-known error detail messages stand in for service requests: they
// have plain strings (description), an id (request_id), lists of nested
// messages (field_violations) and maps (metadata).
func TestCheckInput(t *testing.T) {
	tests := []struct {
		name      string
		req       proto.Message
		wantField string // "" means accepted
	}{
		{"plain text", &errdetails.RequestInfo{RequestId: "abc-123", ServingData: "é ✓ \n\t"}, ""},
		{"text longer than an id", &errdetails.RequestInfo{ServingData: strings.Repeat("x", validation.MaxIDRunes+1)}, ""},
		{"text at its bound", &errdetails.RequestInfo{ServingData: strings.Repeat("é", validation.MaxTextRunes)}, ""},
		{"text over its bound", &errdetails.RequestInfo{ServingData: strings.Repeat("é", validation.MaxTextRunes+1)}, "servingData"},
		{"a megabyte of text", &errdetails.RequestInfo{ServingData: strings.Repeat("x", 1<<20)}, "servingData"},
		{"an id at the limit", &errdetails.RequestInfo{RequestId: strings.Repeat("x", validation.MaxIDRunes)}, ""},
		{"an id over the limit", &errdetails.RequestInfo{RequestId: strings.Repeat("x", validation.MaxIDRunes+1)}, "requestId"},
		{"too long in a list of messages", &errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{
			{Field: "ok"}, {Field: "a", Description: strings.Repeat("x", validation.MaxTextRunes+1)},
		}}, "fieldViolations.description"},
		{"too long in a map value", &errdetails.ErrorInfo{Metadata: map[string]string{"k": strings.Repeat("x", validation.MaxTextRunes+1)}}, "metadata"},
		{"NUL", &errdetails.RequestInfo{ServingData: "a\x00b"}, "servingData"},
		{"invalid UTF-8", &errdetails.RequestInfo{ServingData: "a\xffb"}, "servingData"},
		{"NUL in a list of messages", &errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{
			{Field: "ok"}, {Field: "a", Description: "b\x00"},
		}}, "fieldViolations.description"},
		{"NUL in a map value", &errdetails.ErrorInfo{Metadata: map[string]string{"k": "v\x00"}}, "metadata"},
		{"NUL in a map key", &errdetails.ErrorInfo{Metadata: map[string]string{"k\x00": "v"}}, "metadata"},
	}
	reached := false
	next := func(context.Context, any) (any, error) { reached = true; return "ok", nil }
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reached = false
			_, err := checkInput()(context.Background(), tt.req, &grpc.UnaryServerInfo{}, next)
			if tt.wantField == "" {
				if err != nil || !reached {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			st := status.Convert(err)
			if reached || st.Code() != codes.InvalidArgument || !strings.HasPrefix(st.Message(), tt.wantField+" ") {
				t.Fatalf("reached %v, err %v; want InvalidArgument naming %s", reached, err, tt.wantField)
			}
		})
	}
}

func TestClipErrors(t *testing.T) {
	long := strings.Repeat("é", 5000)
	in := grpcerr.InvalidField("priceId", "priceId "+long+" is unknown.")
	_, err := clipErrors()(context.Background(), nil, &grpc.UnaryServerInfo{}, func(context.Context, any) (any, error) { return nil, in })
	st := status.Convert(err)
	if st.Code() != codes.InvalidArgument || utf8.RuneCountInString(st.Message()) != grpcerr.MaxMessageRunes ||
		!strings.HasSuffix(st.Message(), "…") || !strings.HasPrefix(st.Message(), "priceId éé") {
		t.Fatalf("message %d characters: %.40q", utf8.RuneCountInString(st.Message()), st.Message())
	}
	var br *errdetails.BadRequest
	for _, d := range st.Details() {
		if b, ok := d.(*errdetails.BadRequest); ok {
			br = b
		}
	}
	if br == nil || br.GetFieldViolations()[0].GetField() != "priceId" ||
		utf8.RuneCountInString(br.GetFieldViolations()[0].GetDescription()) != grpcerr.MaxMessageRunes {
		t.Fatalf("details %v", st.Details())
	}
	short := status.Error(codes.NotFound, "User not found.")
	if _, err := clipErrors()(context.Background(), nil, &grpc.UnaryServerInfo{}, func(context.Context, any) (any, error) { return nil, short }); err != short {
		t.Fatalf("a short error changed: %v", err)
	}
}
