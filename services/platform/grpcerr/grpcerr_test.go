package grpcerr

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestClip(t *testing.T) {
	exact := strings.Repeat("a", MaxMessageRunes)
	if Clip(exact) != exact || Clip("short") != "short" {
		t.Fatal("a message within the limit changed")
	}
	got := Clip(strings.Repeat("ü", MaxMessageRunes+1))
	if utf8.RuneCountInString(got) != MaxMessageRunes || !strings.HasSuffix(got, "ü…") || !utf8.ValidString(got) {
		t.Fatalf("clipped to %d characters: %q", utf8.RuneCountInString(got), got)
	}
}

func TestInternalMapsDatabaseValueErrorsToInvalidArgument(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	tests := []struct {
		err  error
		want codes.Code
	}{
		{fmt.Errorf("get user: %w", &pgconn.PgError{Code: "22021", Message: `invalid byte sequence for encoding "UTF8": 0x00`}), codes.InvalidArgument},
		{&pgconn.PgError{Code: "54000", Message: "index row size 1048592 exceeds btree version 4 maximum 2704"}, codes.InvalidArgument},
		{&pgconn.PgError{Code: "23505", Message: "duplicate key"}, codes.Internal},
		{errors.New("connection refused"), codes.Internal},
		{context.Canceled, codes.Canceled},
	}
	for _, tt := range tests {
		st := status.Convert(Internal(context.Background(), log, tt.err))
		if st.Code() != tt.want || strings.Contains(st.Message(), "byte sequence") || strings.Contains(st.Message(), "btree") {
			t.Errorf("%v: %v %q, want %v without detail", tt.err, st.Code(), st.Message(), tt.want)
		}
	}
}

// A dependency that is down (a categories restart behind the studio's or
// the stores' access check) is 503 for the caller, not a 500.
func TestInternalPassesOnAnUnavailableDependency(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	down := fmt.Errorf("check access: %w", status.Error(codes.Unavailable, "connection refused"))
	if got := status.Code(Internal(context.Background(), log, down)); got != codes.Unavailable {
		t.Fatalf("an unavailable dependency became %s, want Unavailable", got)
	}
	if got := status.Code(Internal(context.Background(), log, errors.New("boom"))); got != codes.Internal {
		t.Fatalf("a plain failure became %s, want Internal", got)
	}
}

// A port whose logger was left out still maps errors (it once panicked, and
// the recovery turned every 400 and 503 of five services into a 500).
func TestInternalWithoutALogger(t *testing.T) {
	tooLong := &pgconn.PgError{Code: "54000", Message: "index row size exceeds btree maximum"}
	if got := status.Code(Internal(context.Background(), nil, tooLong)); got != codes.InvalidArgument {
		t.Fatalf("got %s, want InvalidArgument", got)
	}
}
