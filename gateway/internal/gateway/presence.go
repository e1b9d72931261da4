package gateway

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// presenceJSON is the gateway's JSON mapping: protojson, plus one rule for
// request fields declared `optional` (explicit presence). protojson reads
// `"siteUrl": null` as if the field were absent, so a PATCH could not tell
// "clear it" from "leave it": the spec's client sends an empty website as
// null, and other clients send only the fields they change. Here an
// explicit null sets the field, to its zero value, and a field left out of
// the body stays unset; the service then leaves unset fields as they are.
type presenceJSON struct{ *runtime.JSONPb }

// NewDecoder decodes as JSONPb does; for a message with optional fields it
// then marks the ones the body set to null.
func (m presenceJSON) NewDecoder(r io.Reader) runtime.Decoder {
	return runtime.DecoderFunc(func(v any) error {
		msg, ok := v.(proto.Message)
		if !ok || !hasOptionalScalars(msg.ProtoReflect().Descriptor()) {
			return m.JSONPb.NewDecoder(r).Decode(v)
		}
		body, err := io.ReadAll(r)
		if err != nil {
			return err
		}
		if err := m.JSONPb.NewDecoder(bytes.NewReader(body)).Decode(v); err != nil {
			return err
		}
		setNulls(body, msg.ProtoReflect())
		return nil
	})
}

// hasOptionalScalars reports whether md has a top-level `optional` field
// that is not a message (messages have presence with or without null).
func hasOptionalScalars(md protoreflect.MessageDescriptor) bool {
	fields := md.Fields()
	for i := range fields.Len() {
		if fd := fields.Get(i); fd.HasOptionalKeyword() && fd.Message() == nil {
			return true
		}
	}
	return false
}

// setNulls sets each optional scalar field that body (already decoded into
// m) gives as null to its zero value, which marks it present.
func setNulls(body []byte, m protoreflect.Message) {
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return
	}
	fields := m.Descriptor().Fields()
	for key, raw := range top {
		if string(bytes.TrimSpace(raw)) != "null" {
			continue
		}
		fd := fields.ByJSONName(key)
		if fd == nil {
			fd = fields.ByName(protoreflect.Name(key))
		}
		if fd != nil && fd.HasOptionalKeyword() && fd.Message() == nil {
			m.Set(fd, fd.Default())
		}
	}
}
