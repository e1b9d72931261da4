#!/usr/bin/env bash
# make bench, part by part, each timed: the API on a stack whose services
# trust the benchmark's own signing key (apibench), then the Go benchmarks
# and the web (first load, Lighthouse) on one stack of the whole product,
# then the one table with the goals it misses (apibench -report). A part
# that fails is said and the others still run; the exit status is then 1.
# Each part's results, and the Go benchmarks' own output (go.txt), stay in
# OUT.
#
# The Go benchmarks share the web's stack, one start instead of two: each
# works in a database of its own (pgtest) that no service reads, none
# publishes on NATS, and the idle services took 0.64 s of CPU in a minute
# (26 Nov), about 1 % of one core.
#
#   make-bench.sh BIN OUT PKG...                   (make bench)
#   make-bench.sh inside-api BIN OUT               run by devstack: the API
#   make-bench.sh inside-go-web BIN OUT PKG...     run by devstack: Go, then the web
set -uo pipefail

took() { printf '%d min %02d s' $(($1 / 60)) $(($1 % 60)); }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
# note NAME SECONDS [DETAIL]: one line of the closing summary.
note() { printf '  %-28s %s%s\n' "$1" "$(took "$2")" "${3:+ ($3)}" >>"$out/times"; }
# The stack is up when devstack runs the inside part: from the part's start.
stack_up() { echo $(($(date +%s) - $(cat "$out/part-start"))); }

case $1 in
inside-api)
	bin=$2 out=$3
	up=$(stack_up)
	# The Go test binaries are linked while this stack starts; the load
	# waits for them so that no build shares a core with a measurement.
	start=$SECONDS
	until [[ -s $out/go/built ]]; do sleep 0.2; done
	waited=$((SECONDS - start))
	start=$SECONDS
	"$bin/apibench" -save "$out/api.json"
	rc=$?
	note "API" $((up + waited + SECONDS - start)) "stack start $up s, waiting for the Go build $waited s, load $(took $((SECONDS - start)))"
	exit $rc
	;;
inside-go-web)
	bin=$2 out=$3
	shift 3
	up=$(stack_up)
	rc=0
	start=$SECONDS
	echo "Go benchmarks (product beside baseline; their output: $out/go.txt):"
	if [[ $(cat "$out/go/built") != 0 ]]; then
		echo "  the Go benchmarks did not build: $out/go-build.log"
		cat "$out/go-build.log"
		rc=1
	fi
	for pkg in "$@"; do
		test=$out/go/$(tr / _ <<<"${pkg#./}").test
		[[ -x $test ]] || continue
		s=$SECONDS
		# As go test runs it: in the package's folder, with go test's default timeout.
		(cd "$pkg" && "$test" -test.run='^$' -test.bench=. -test.benchmem -test.timeout=10m) >"$out/go-pkg.txt" 2>&1
		st=$?
		cat "$out/go-pkg.txt" >>"$out/go.txt"
		if [[ $st != 0 ]]; then
			cat "$out/go-pkg.txt"
			rc=1
		fi
		printf '  %-44s %4d s%s\n' "$pkg" $((SECONDS - s)) "$([[ $st != 0 ]] && echo '  FAILED')"
	done
	rm -f "$out/go-pkg.txt"
	note "Go benchmarks" $((up + SECONDS - start)) "stack start $up s, benchmarks $(took $((SECONDS - start)))"
	start=$SECONDS
	node frontends/scripts/bench-web.mjs --save "$out/web.json" || rc=1
	note "web" $((SECONDS - start)) "first load and Lighthouse, on the same stack"
	exit $rc
	;;
esac

bin=$1 out=$2
shift 2
rm -rf "$out"
mkdir -p "$out/go"
out=$(cd "$out" && pwd)
begin=$SECONDS
echo "make bench: load average $(loadavg) at the start (the machine is shared: read the ratios)"
# Linked while the API's stack starts (inside-api waits for them).
(
	st=0
	for pkg in "$@"; do
		go test -c -o "$out/go/$(tr / _ <<<"${pkg#./}").test" "$pkg" || st=1
	done
	echo $st >"$out/go/built"
) >"$out/go-build.log" 2>&1 &

failed=()
date +%s >"$out/part-start"
"$bin/devstack" exec -apps -test-keys -- "$0" inside-api "$bin" "$out" || failed+=("the API part")
wait
date +%s >"$out/part-start"
"$bin/devstack" exec -apps -- "$0" inside-go-web "$bin" "$out" "$@" || failed+=("the Go or web part")
"$bin/apibench" -report "$out" || failed+=("the table")
echo
echo "make bench took $(took $((SECONDS - begin))) (load average $(loadavg) at the end):"
cat "$out/times"
if ((${#failed[@]})); then
	echo "Failed: ${failed[*]} (see above)"
	exit 1
fi
