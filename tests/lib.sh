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
# rec NAME RECORD ARG...: predicate NAME of tests/records.py on RECORD (records.py list)
rec() { /usr/bin/python3 "$PWD/tests/records.py" "$@"; }

# numa_nodes: how many NUMA nodes this machine has (1 where the kernel shows none)
numa_nodes() {
    local n
    n=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
    echo $((n > 0 ? n : 1))
}
# cpus_ours [any] LIST: this shell may run on every CPU of LIST (with any: on one of them);
# LIST "all": every online CPU, "node0": NUMA node 0's
cpus_ours() {
    /usr/bin/python3 - "$@" <<'PY'
import os, sys
def parse(t):
    s = set()
    for part in t.strip().split(","):
        if part:
            a, _, b = part.partition("-")
            s |= set(range(int(a), int(b or a) + 1))
    return s
anyof = sys.argv[1] == "any"
arg = sys.argv[-1]
files = {"all": "/sys/devices/system/cpu/online", "node0": "/sys/devices/system/node/node0/cpulist"}
try:
    want = parse(open(files[arg]).read()) if arg in files else parse(arg)
except OSError:
    want = parse(open(files["all"]).read())  # no node0 listed: one node, every CPU
mine = os.sched_getaffinity(0)
sys.exit(0 if (want & mine if anyof else want <= mine) else 1)
PY
}

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
