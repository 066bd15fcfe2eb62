#!/usr/bin/env bash
# run.sh [SECONDS] - fuzz gmb's record readers and plot data writer (build/fuzz/fuzz-records,
# made by `make fuzz-build`) for SECONDS (60), seeded from the committed records. Exit 0 when
# no input crashed, tripped a sanitizer, leaked or hung; else 1, with the report and the input
# kept as build/fuzz/crash-* (rerun: build/fuzz/fuzz-records FILE). Prints one summary line.
set -u
cd "$(dirname "$0")/../.."
S=${1:-60}
F=build/fuzz/fuzz-records
case "$S" in '' | *[!0-9]* | 0) echo "run.sh: SECONDS must be a positive integer" >&2; exit 2 ;; esac
[ -x "$F" ] || { echo "run.sh: no $F (make fuzz-build)" >&2; exit 2; }
W=$(mktemp -d "${TMPDIR:-/tmp}/gmb-fuzz.XXXXXX") || exit 3
trap 'rm -rf "$W"' EXIT
python3 tests/fuzz/seeds.py "$W/corpus" "$W/dict" >/dev/null || { echo "run.sh: no seeds" >&2; exit 3; }
export GMB_FUZZ_QUIET=1 TMPDIR="$W"
export ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
"$F" -max_total_time="$S" -max_len=65536 -timeout=20 -rss_limit_mb=2048 -dict="$W/dict" \
    -artifact_prefix=build/fuzz/ -print_final_stats=1 "$W/corpus" >"$W/log" 2>&1
rc=$?
cp "$W/log" build/fuzz/last.log
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$W/log")
cov=$(grep -o 'cov: [0-9]*' "$W/log" | tail -1)
if [ "$rc" = 0 ]; then
    echo "fuzz: ${runs:-?} inputs in ${S} s ($cov edges), no crash, leak, hang or sanitizer report"
    exit 0
fi
# stderr was /dev/null while the input ran: run the input kept again, aloud, for the report
input=$(ls -t build/fuzz/crash-* build/fuzz/leak-* build/fuzz/timeout-* build/fuzz/oom-* \
    2>/dev/null | head -1)
[ -n "$input" ] && GMB_FUZZ_QUIET=0 timeout 60 "$F" "$input" >>"$W/log" 2>&1
cp "$W/log" build/fuzz/last.log
grep -E "ERROR|SUMMARY|runtime error|#[0-9]+ 0x" "$W/log" | head -12
echo "fuzz: FAILED after ${runs:-?} inputs (exit $rc); input: ${input:-none kept}"
exit 1
