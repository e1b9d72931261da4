#!/usr/bin/env bash
# Prints one program's version, from its own path's history, so each
# service is released on its own:
#
#   deploy/version.sh NAME     e.g. users, gateway, reviewworker, natssetup
#
# A service's tags are Go's for a module in a subdirectory:
# services/users/v1.4.0, gateway/v0.3.1 (workers share their service's).
# The version is the newest such tag reachable from HEAD, or v0.0.0 before
# the first; when commits since then changed what goes into the binary
# (its folder, services/platform, proto) it is TAG-N-gREV: N those commits,
# REV the last of them, so a commit to another service leaves it as it
# was. "-dirty" when those paths have uncommitted changes.
set -euo pipefail

name=${1:?usage: deploy/version.sh NAME}
case $name in
  gateway) dir=gateway ;;
  reviewworker) dir=services/review ;;
  studioworker) dir=services/studio ;;
  natssetup) dir=services/platform ;;
  *) dir=services/$name ;;
esac
cd "$(git rev-parse --show-toplevel)"
[[ -d $dir ]] || { echo "version.sh: no program $name ($dir)" >&2; exit 2; }
paths=("$dir" services/platform proto)

tag=$(git describe --tags --abbrev=0 --match "$dir/v[0-9]*" HEAD 2>/dev/null || true)
if [[ -n $tag ]]; then
  version=${tag#"$dir/"}
  since=("$tag..HEAD")
else
  version=v0.0.0
  since=(HEAD)
fi
n=$(git rev-list --count "${since[@]}" -- "${paths[@]}")
if ((n > 0)); then
  version=$version-$n-g$(git log -1 --format=%h --abbrev=12 "${since[@]}" -- "${paths[@]}")
fi
if [[ -n $(git status --porcelain -- "${paths[@]}") ]]; then
  version=$version-dirty
fi
echo "$version"
