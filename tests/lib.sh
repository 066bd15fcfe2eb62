# lib.sh - helpers of the integration tests (sourced by run-tests.sh, which defines BIN, TAG,
# pass, fail and skip). Each tests/integration-<name>.sh uses them; T is a fresh temp dir.
T=$(mktemp -d /tmp/gmb-test.XXXXXX)
G="$PWD/$BIN/gmb"
SCHEMA="$PWD/tests/record.schema.json"
VALIDATE="$PWD/tests/validate-record.py"
# small, fast measurements: the point is correctness, never timings
FAST=(--backend opencl --warmup 0 --min-samples 2 --max-samples 3 --time-cap 0.05
      --min-sample-us 20 --quiet)

# expect NAME RC CMD...: run CMD (stdout in $T/out, stderr in $T/err), check its exit status
expect() {
    local name=$1 want=$2
    shift 2
    "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    if [ "$rc" = "$want" ]; then
        pass "$TAG $name"
        return 0
    fi
    fail "$TAG $name: exit $rc, wanted $want"
    tail -5 "$T/err" | sed 's/^/    /'
    return 1
}
# check NAME CONDITION...: a shell test
check() {
    local name=$1
    shift
    if "$@"; then pass "$TAG $name"; else fail "$TAG $name"; fi
}
json() { /usr/bin/python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"; }

# have_opencl: an OpenCL device to run on (PoCL in CI)
have_opencl() { command -v clinfo >/dev/null && clinfo -l 2>/dev/null | grep -q Device; }

# bad_input WHAT NAME DIR CMD...: CMD (which writes its record under DIR) is bad input: exit 2,
# one line on stderr, nothing written. Test names "WHAT bad input: NAME[: ...]".
bad_input() {
    local what=$1 name=$2 dir=$3
    shift 3
    rm -rf "$dir"
    if expect "$what bad input: $name" 2 "$@"; then
        check "$what bad input: $name: one line on stderr" test "$(wc -l <"$T/err")" = 1
        check "$what bad input: $name: nothing written" test ! -e "$dir"
    fi
}
