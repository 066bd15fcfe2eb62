#!/usr/bin/env bash
# run-tests.sh - every test: cmocka unit tests and the OpenCL/PoCL integration tests, on the
# normal build and again on an ASan+UBSan build. Ends with "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.."
PASS=0 FAIL=0 SKIP=0
FAILED=()
pass() { PASS=$((PASS + 1)); echo "ok   $*"; }
fail() { FAIL=$((FAIL + 1)); FAILED+=("$*"); echo "FAIL $*"; }
skip() { SKIP=$((SKIP + 1)); echo "skip $*"; }

# cmocka unit tests, counted one by one through their TAP output
run_unit() { # build-dir tag
    local t out
    for t in "$1"/tests/test_*; do
        [ -x "$t" ] || continue
        out=$(CMOCKA_MESSAGE_OUTPUT=TAP "$t" 2>&1)
        local rc=$? n=0
        while IFS= read -r line; do
            case "$line" in
            *"# SKIP"*) skip "$2 unit $(basename "$t"): ${line#*ok * - }"; n=$((n + 1)) ;;
            "ok "*) pass "$2 unit $(basename "$t"): ${line#ok * - }"; n=$((n + 1)) ;;
            "not ok "*) fail "$2 unit $(basename "$t"): ${line#not ok * - }"; n=$((n + 1)) ;;
            esac
        done <<<"$out"
        if [ "$n" = 0 ] ||
            { [ "$rc" != 0 ] && ! grep -v "# SKIP" <<<"$out" | grep -q "^not ok"; }; then
            fail "$2 unit $(basename "$t"): exit $rc"
            echo "$out" | tail -20
        fi
    done
}

# every tests/integration-*.sh, with the helpers of tests/lib.sh
# (GMB_TEST_ONLY=WORD: only the files whose name holds WORD, for a quick look at one part)
run_integration() {
    local f
    for f in tests/integration-*${GMB_TEST_ONLY:-}*.sh; do
        . tests/lib.sh
        . "$f"
        rm -rf "$T"
    done
}

# what the tests need (make check installs it as root): a missing piece is a failure, never a
# note, since every test that needs it would otherwise skip or fail for that reason alone
need() { # what install-hint test-command...
    local what=$1 hint=$2
    shift 2
    if "$@" >/dev/null 2>&1; then pass "deps: $what"; else fail "deps: $what missing ($hint)"; fi
}
need "cmocka (unit tests built)" "apt-get install libcmocka-dev; make check builds them" \
    compgen -G "build/tests/test_*"
need "python3-jsonschema (records validated)" "apt-get install python3-jsonschema" \
    /usr/bin/python3 -c "import jsonschema"
need "clang-format" "apt-get install clang-format" command -v clang-format
need "gnuplot (figures drawn)" "apt-get install gnuplot-nox" command -v gnuplot
need "man (man pages rendered)" "apt-get install man-db" command -v man
need "clang with libFuzzer (records fuzzed)" "apt-get install clang libclang-rt-dev" \
    bash -c 'printf "int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }" |
        clang -fsanitize=fuzzer -x c - -o /dev/null'
need "an OpenCL device (PoCL)" "apt-get install pocl-opencl-icd ocl-icd-opencl-dev" \
    bash -c 'bin/gmb devices | grep -q "^opencl"'

TAG=normal
BIN=bin
if command -v clang-format >/dev/null; then
    if make --no-print-directory format-check >build/format.log 2>&1; then
        pass "format: clang-format clean"
    else
        fail "format: clang-format would change files (make format)"
        head -5 build/format.log
    fi
fi
# the optional parts' other side compiles too (a build without hwloc: common/topo.c's stubs)
if ${CC:-cc} -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Icommon -DGMB_HAVE_HWLOC=0 \
    -fsyntax-only common/topo.c 2>build/nohwloc.log; then
    pass "build: common/topo.c compiles without hwloc"
else
    fail "build: common/topo.c does not compile without hwloc"
    head -5 build/nohwloc.log
fi
# what the Makefile detects without pkg-config (GPU images lack it): a header test that finds
# what is installed and nothing when the compiler sees no headers at all
detected() { # make-args...: the values of the detection variables, one "NAME=V" per line
    make --no-print-directory -s -n -p PKG_CONFIG=false "$@" help 2>/dev/null |
        sed -nE 's/^(HAVE_JANSSON|HAVE_HWLOC|OPENCL) := ([01])$/\1=\2/p' | sort | tr '\n' ' '
}
d_with=$(detected) d_none=$(detected CC="${CC:-cc} -nostdinc")
if [ "$d_with" = "HAVE_HWLOC=1 HAVE_JANSSON=1 OPENCL=1 " ] &&
    [ "$d_none" = "HAVE_HWLOC=0 HAVE_JANSSON=0 OPENCL=0 " ]; then
    pass "build: without pkg-config, headers found by test, absent ones not ($d_none)"
else
    fail "build: detection without pkg-config: '$d_with' with headers, '$d_none' without"
fi
# every record committed under results/ against the schema of the version it carries
# (tests/schema/record-v<N>.schema.json; run.json is a gmb-run manifest, not a record): one
# line per directory, one per bad record naming its file and what is wrong
validate_committed() {
    local recs out line p d v
    declare -A nok=() nbad=() vers=()
    mapfile -t recs < <(find results -name '*.json' ! -name run.json 2>/dev/null | LC_ALL=C sort)
    if [ "${#recs[@]}" = 0 ]; then
        skip "records: no record committed under results/"
        return
    fi
    out=$(/usr/bin/python3 tests/validate-record.py --each tests/schema "${recs[@]}" 2>&1)
    while IFS= read -r line; do
        case "$line" in
        "ok "*)
            p=${line#ok } # "PATH (vN)"
            v=${p##* (}
            p=${p% (v*}
            d=${p%/*}
            nok[$d]=$((${nok[$d]:-0} + 1))
            case " ${vers[$d]:-} " in
            *" ${v%)} "*) ;;
            *) vers[$d]="${vers[$d]:-}${vers[$d]:+ }${v%)}" ;;
            esac
            ;;
        *)
            fail "records: $line"
            p=${line%%: *}
            d=${p%/*}
            nbad[$d]=$((${nbad[$d]:-0} + 1))
            ;;
        esac
    done <<<"$out"
    local dirs=() f n
    declare -A nrec=()
    for f in "${recs[@]}"; do
        d=${f%/*}
        [ -n "${nrec[$d]:-}" ] || dirs+=("$d")
        nrec[$d]=$((${nrec[$d]:-0} + 1))
    done
    for d in "${dirs[@]}"; do
        n=${nrec[$d]}
        if [ "${nok[$d]:-0}" = "$n" ]; then
            pass "records: $d: $n valid against their version's schema (${vers[$d]})"
        elif [ $((${nok[$d]:-0} + ${nbad[$d]:-0})) != "$n" ]; then
            fail "records: $d: $((n - ${nok[$d]:-0} - ${nbad[$d]:-0})) of $n not validated" \
                "($(tail -1 <<<"$out"))"
        fi
    done
}
validate_committed
run_unit build "$TAG"
# records travel: the readers (table, cross-checks, compare, report) and the plot data writer
# under libFuzzer with ASan+UBSan for GMB_FUZZ_S seconds (60), seeded from the committed records
if make --no-print-directory fuzz-build >build/fuzz-build.log 2>&1; then
    if out=$(tests/fuzz/run.sh "${GMB_FUZZ_S:-60}" 2>&1); then
        pass "$out"
        # and it can fail: a planted heap overflow (GMB_FUZZ_PLANT) is caught and reported
        if ! planted=$(GMB_FUZZ_PLANT=1 tests/fuzz/run.sh 5 2>&1) &&
            grep -q "heap-buffer-overflow" <<<"$planted"; then
            pass "fuzz: a planted heap overflow is caught"
        else
            fail "fuzz: a planted heap overflow went unreported: $planted"
        fi
        rm -f build/fuzz/crash-*
    else
        fail "fuzz: the record readers (tests/fuzz/run.sh; log: build/fuzz/last.log)"
        echo "$out" | tail -25
    fi
else
    fail "fuzz: the fuzz target does not build (see build/fuzz-build.log)"
    tail -10 build/fuzz-build.log
fi
run_integration

if [ "${GMB_NO_SAN:-0}" != 1 ]; then
    echo "-- building with ASan+UBSan (build/san)"
    if make --no-print-directory SAN=1 -j"$(nproc)" tests >build/san-build.log 2>&1; then
        # intercept_tls_get_addr=0: up to GCC 13 the runtime takes a dynamic TLS block whose
        # address happens to be 16 past a page for glibc 2.19's layout, and LeakSanitizer's
        # tracer then crashes at exit ("Tracer caught signal 11"), a flake that moves with
        # memory layout (google/sanitizers#1322). Leaks are still checked; only memory
        # reachable from dynamic TLS alone would now be reported (none is)
        export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:intercept_tls_get_addr=0\
:suppressions=$PWD/tests/lsan.supp
        export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
        export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
        TAG=san
        BIN=build/san/bin
        run_unit build/san "$TAG"
        run_integration
    else
        fail "san build (see build/san-build.log)"
        tail -20 build/san-build.log
    fi
fi

if [ "${#FAILED[@]}" -gt 0 ]; then
    echo "failed:"
    printf '  %s\n' "${FAILED[@]}"
fi
echo "$PASS passed, $FAIL failed, $SKIP skipped"
[ "$FAIL" = 0 ]
