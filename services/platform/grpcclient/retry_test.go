package grpcclient

import (
	"context"
	"net"
	"sync/atomic"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/resolver"
	"google.golang.org/grpc/resolver/manual"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/known/emptypb"
)

// things is a proto service linked into this test binary as a generated
// one would be: GetThing is a read (NO_SIDE_EFFECTS), PutThing sets a value
// (IDEMPOTENT), CreateThing is neither.
func init() {
	empty := ".google.protobuf.Empty"
	method := func(name string, level descriptorpb.MethodOptions_IdempotencyLevel) *descriptorpb.MethodDescriptorProto {
		return &descriptorpb.MethodDescriptorProto{Name: proto.String(name), InputType: &empty, OutputType: &empty,
			Options: &descriptorpb.MethodOptions{IdempotencyLevel: level.Enum()}}
	}
	f, err := protodesc.NewFile(&descriptorpb.FileDescriptorProto{
		Name: proto.String("grpcclient_test/things.proto"), Package: proto.String("grpcclienttest"), Syntax: proto.String("proto3"),
		Dependency: []string{"google/protobuf/empty.proto"},
		Service: []*descriptorpb.ServiceDescriptorProto{{Name: proto.String("Things"), Method: []*descriptorpb.MethodDescriptorProto{
			method("GetThing", descriptorpb.MethodOptions_NO_SIDE_EFFECTS),
			method("PutThing", descriptorpb.MethodOptions_IDEMPOTENT),
			method("CreateThing", descriptorpb.MethodOptions_IDEMPOTENCY_UNKNOWN),
		}}},
	}, protoregistry.GlobalFiles)
	if err != nil {
		panic(err)
	}
	if err := protoregistry.GlobalFiles.RegisterFile(f); err != nil {
		panic(err)
	}
}

// thingsCopy serves grpcclienttest.Things, answering every method with
// answer, and counts the calls that reach it.
func thingsCopy(t *testing.T, answer error, calls *atomic.Int64) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	handler := func(_ any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
		if err := dec(new(emptypb.Empty)); err != nil {
			return nil, err
		}
		calls.Add(1)
		return &emptypb.Empty{}, answer
	}
	desc := grpc.ServiceDesc{ServiceName: "grpcclienttest.Things", HandlerType: (*any)(nil)}
	for _, m := range []string{"GetThing", "PutThing", "CreateThing"} {
		desc.Methods = append(desc.Methods, grpc.MethodDesc{MethodName: m, Handler: handler})
	}
	srv := grpc.NewServer()
	srv.RegisterService(&desc, struct{}{})
	healthpb.RegisterHealthServer(srv, health.NewServer())
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return lis.Addr().String()
}

// One of two copies answers UNAVAILABLE (as a copy going away does): a call
// its proto marks safe to repeat is made again on the other copy and
// succeeds; any other call is made once and fails.
func TestOnlyRepeatableCallsAreRetried(t *testing.T) {
	var broken, healthy atomic.Int64
	r := manual.NewBuilderWithScheme("things")
	r.InitialState(resolver.State{Addresses: []resolver.Address{
		{Addr: thingsCopy(t, status.Error(codes.Unavailable, "going away"), &broken)},
		{Addr: thingsCopy(t, nil, &healthy)},
	}})
	conn, err := New("things:///things", grpc.WithResolvers(r))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	call := func(method string) error {
		return conn.Invoke(context.Background(), "/grpcclienttest.Things/"+method, &emptypb.Empty{}, &emptypb.Empty{})
	}
	// round_robin picks only among the copies it has connected to: until
	// both are, every call may go to the healthy one and nothing is tried.
	waitFor(t, func() bool { _ = call("GetThing"); return broken.Load() > 0 })
	const n = 20
	for _, method := range []string{"GetThing", "PutThing"} {
		broken.Store(0)
		healthy.Store(0)
		for i := range n {
			if err := call(method); err != nil {
				t.Fatalf("%s call %d: %v (a repeatable call must be retried on the other copy)", method, i, err)
			}
		}
		if broken.Load() == 0 || healthy.Load() != n {
			t.Fatalf("%s: %d attempts on the broken copy, %d answers from the healthy one; want some and %d", method, broken.Load(), healthy.Load(), n)
		}
		t.Logf("%s: %d calls succeeded, %d first attempts met UNAVAILABLE and were made again", method, n, broken.Load())
	}
	broken.Store(0)
	healthy.Store(0)
	failed := 0
	for range n {
		if err := call("CreateThing"); err != nil {
			if status.Code(err) != codes.Unavailable {
				t.Fatalf("CreateThing: %v", err)
			}
			failed++
		}
	}
	if failed == 0 || int64(failed) != broken.Load() || healthy.Load() != int64(n-failed) {
		t.Fatalf("CreateThing: %d failed, %d reached the broken copy, %d the healthy one; want each failure to be its one attempt", failed, broken.Load(), healthy.Load())
	}
	t.Logf("CreateThing: %d of %d failed with UNAVAILABLE, each after one attempt", failed, n)
}

// The service config names exactly the methods protos mark repeatable.
func TestServiceConfigNamesTheRepeatableMethods(t *testing.T) {
	var got []string
	for _, n := range repeatable(protoregistry.GlobalFiles) {
		if n["service"] == "grpcclienttest.Things" {
			got = append(got, n["method"])
		}
	}
	if len(got) != 2 || got[0] != "GetThing" || got[1] != "PutThing" {
		t.Fatalf("repeatable methods of grpcclienttest.Things: %v, want [GetThing PutThing]", got)
	}
}
