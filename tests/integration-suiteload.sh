# integration-suiteload.sh - gmb run on a busy host or device (a fake /proc/loadavg through
# GMB_TEST_LOADAVG_FILE, NVML's stand-in with another process on the GPU): a note once on
# stderr, host_load in run.json; the ETA from measured progress (the lines without a terminal,
# the bar on a pseudo-terminal while a program overruns its estimate); CUDA's skip reason
# where there is no NVIDIA driver.
SL_FASTC=(--warmup 0 --min-samples 2 --max-samples 3 --time-cap 0.02)
# sl_man FILE EXPR: a Python expression over the manifest m
sl_man() { /usr/bin/python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print($2)" "$1"; }
NCPU=$(getconf _NPROCESSORS_ONLN)
BUSY_LOAD="$((NCPU * 2 + 1)).25" # (printed alike by C's %.2f and Python)

if ! have_opencl; then
    skip "$TAG integration suiteload: no OpenCL device (install pocl-opencl-icd)"
else
    # a private bin/: a real benchmark, one that runs first and one that skips
    mkdir -p "$T/bin"
    cp "$G" "$T/bin/gmb"
    ln -s "$PWD/$BIN/gmb-bank" "$T/bin/gmb-bank"
    printf '#!/bin/sh\necho "gmb-zzz: skipped: planted skip" >&2\nexit 77\n' >"$T/bin/gmb-zzz"
    chmod +x "$T/bin/gmb-zzz"

    # --- forced busy: the note once (two checks say busy), busy in run.json -----------------
    echo "$BUSY_LOAD 1.00 0.50 3/200 4242" >"$T/loadavg"
    if GMB_TEST_LOADAVG_FILE="$T/loadavg" GMB_PLOTS="$PWD/plots" \
        expect "suiteload: a busy host" 0 "$T/bin/gmb" run --backend opencl --results "$T/busy" \
        --only bank,zzz -- "${SL_FASTC[@]}"; then
        m="$(tail -1 "$T/out")/run.json"
        check "suiteload busy: the note exactly once on stderr" \
            test "$(grep -c '^gmb: note:' "$T/err")" = 1
        check "suiteload busy: the note says the load, the CPUs and what it means" grep -qx \
            "gmb: note: the host is busy (load $BUSY_LOAD on $NCPU CPUs, at the start): a CPU \
device measures a share of it; numbers are lower than on an idle host" "$T/err"
        check "suiteload busy: run.json host_load" rec suiteload-host-load "$m" busy=true \
            "reason=load $BUSY_LOAD on $NCPU CPUs at the start" "loadavg_1m_start=$BUSY_LOAD" \
            "loadavg_1m_max=$BUSY_LOAD" "cpus_online=$NCPU" device_in_use_before=[]
        check "suiteload busy: both programs still ran" \
            rec suiteload-programs "$m" bank=ok zzz=skipped
        if expect "suiteload busy: gmb report" 0 "$T/bin/gmb" report "$(dirname "$m")" --out -; then
            check "suiteload busy: the report's conditions say the host was busy, and why" \
                grep -q "^\*\*The host was busy\*\*: load $BUSY_LOAD on $NCPU CPUs at the \
start\. A CPU device" "$T/out"
        fi
    fi

    # --- forced idle: no note, busy false ----------------------------------------------------
    echo "0.00 0.00 0.00 1/200 4242" >"$T/loadavg"
    if GMB_TEST_LOADAVG_FILE="$T/loadavg" GMB_PLOTS="$PWD/plots" \
        expect "suiteload: an idle host" 0 "$T/bin/gmb" run --backend opencl --results "$T/idle" \
        --only bank,zzz -- "${SL_FASTC[@]}"; then
        m="$(tail -1 "$T/out")/run.json"
        check "suiteload idle: no note" test "$(grep -c '^gmb: note:' "$T/err")" = 0
        check "suiteload idle: run.json host_load not busy, no reason" \
            rec suiteload-host-load "$m" busy=false reason=null loadavg_1m_start=0.0 \
            loadavg_1m_max=0.0 "cpus_online=$NCPU"
        # the ETA from measured progress: the second program's estimate is bank's measured
        # rate times zzz's estimate; the last line says the time against the first estimate
        check "suiteload: run.json estimate_s is the sum of the programs' estimates" \
            rec suiteload-estimate-sum "$m"
        want=$(sl_man "$m" "(lambda b, z: (lambda s: '%d:%02d' % (s // 60, s % 60))(
            int(z['estimate_s'] * min(10, max(0.1, b['wall_s'] / b['estimate_s'])))))(
            *m['programs'])")
        check "suiteload: the second program's ETA is scaled by the first one's measure \
(${want:-?})" grep -q "^gmb: \[2/2\] zzz: running (.*), about $want left\$" "$T/err"
        first=$(sl_man "$m" "'%d:%02d' % (int(m['estimate_s']) // 60, int(m['estimate_s']) % 60)")
        check "suiteload: the last line, the time taken against the first estimate" grep -qE \
            "^gmb: done in [0-9.]+ s \([0-9]+:[0-9]{2}; the first estimate $first\): 1 ok, \
1 skipped, 0 failed; " "$T/err"
        if expect "suiteload idle: gmb report" 0 "$T/bin/gmb" report "$(dirname "$m")" --out -; then
            check "suiteload idle: the report's conditions give the load, not busy" grep -q \
                "^The host was not busy: load 0.00 at the start, 0.00 at most, on $NCPU \
CPUs\.\$" "$T/out"
        fi
    fi

    # --- busy only between programs: the check before each program sees it --------------------
    # (like a real program, it does nothing with --help: gmb run parses the options after
    # '--' with each program's --help before it starts)
    printf '#!/bin/sh\ncase "$*" in *--help*) exit 0 ;; esac\n'\
'echo "%s 1.00 0.50 3/200 4242" >"%s"\nexit 0\n' "$BUSY_LOAD" "$T/loadavg" >"$T/bin/gmb-aaa"
    chmod +x "$T/bin/gmb-aaa"
    echo "0.10 0.00 0.00 1/200 4242" >"$T/loadavg"
    if GMB_TEST_LOADAVG_FILE="$T/loadavg" GMB_PLOTS="$PWD/plots" \
        expect "suiteload: busy from the second program" 0 "$T/bin/gmb" run --backend opencl \
        --results "$T/later" --only aaa,bank,zzz -- "${SL_FASTC[@]}"; then
        m="$(tail -1 "$T/out")/run.json"
        check "suiteload later: the note once, naming the program it came before" test \
            "$(grep -c '^gmb: note:' "$T/err")$(grep -c "^gmb: note: the host is busy (load \
$BUSY_LOAD on $NCPU CPUs, before bank): " "$T/err")" = 11
        check "suiteload later: the note after aaa's end, before bank's start" test "$(grep -n \
            -e '^gmb: note:' -e '^gmb: \[1/3\] aaa: ok' -e '^gmb: \[2/3\] bank: running' "$T/err" |
            cut -d: -f3 | tr -d ' \n')" = "[1/3]aaanote[2/3]bank"
        check "suiteload later: the start's load and the most seen" \
            rec suiteload-host-load "$m" busy=true \
            "reason=load $BUSY_LOAD on $NCPU CPUs before bank" loadavg_1m_start=0.1 \
            "loadavg_1m_max=$BUSY_LOAD"
    fi
    rm -f "$T/bin/gmb-aaa"

    # --- the device in use before a program (NVML's stand-in: one other process) -------------
    STUB="$PWD/build/tests/stub/libnvidia-ml.so.1"
    [ "$TAG" = san ] && STUB="$PWD/build/san/tests/stub/libnvidia-ml.so.1"
    echo "0.00 0.00 0.00 1/200 4242" >"$T/loadavg"
    if [ -f "$STUB" ] && GMB_NVML_LIB="$STUB" GMB_TEST_NVML_PCI=0000:01:00.0 GMB_STUB_PROCS=1 \
        GMB_TEST_LOADAVG_FILE="$T/loadavg" GMB_PLOTS="$PWD/plots" \
        expect "suiteload: the device in use" 0 "$T/bin/gmb" run --backend opencl \
        --results "$T/dev" --only bank,zzz -- "${SL_FASTC[@]}"; then
        m="$(tail -1 "$T/out")/run.json"
        check "suiteload device: the note once, naming the program" test \
            "$(grep -c '^gmb: note:' "$T/err")$(grep -c '^gmb: note: the device was in use '\
'before bank (busy_before in its record): ' "$T/err")" = 11
        check "suiteload device: run.json busy, the program listed" \
            rec suiteload-device-busy "$m" bank
    fi
    # (and without another process: not busy)
    if [ -f "$STUB" ] && GMB_NVML_LIB="$STUB" GMB_TEST_NVML_PCI=0000:01:00.0 \
        GMB_TEST_LOADAVG_FILE="$T/loadavg" GMB_PLOTS="$PWD/plots" \
        expect "suiteload: the device idle" 0 "$T/bin/gmb" run --backend opencl \
        --results "$T/devidle" --only bank -- "${SL_FASTC[@]}"; then
        check "suiteload device idle: no note, not busy" test "$(grep -c '^gmb: note:' "$T/err") \
$(rec suiteload-host-load "$(tail -1 "$T/out")/run.json" busy=false device_in_use_before=[] &&
            echo holds)" = "0 holds"
    fi

    # --- the bar on a terminal while a program overruns its estimate: never 0:00, growing ----
    # (hang's estimate 1 s, it sleeps 3 s; zzz after it estimated 10 s: the ETA grows with
    # hang's measured rate, to about 0:27 at its end, where a fixed estimate stayed 0:10)
    printf '#!/bin/sh\nsleep 3\nexit 0\n' >"$T/bin/gmb-hang"
    chmod +x "$T/bin/gmb-hang"
    printf 'hang quick * 1\nzzz quick * 10\n' >"$T/eta.conf"
    if command -v script >/dev/null; then
        script -qec "GMB_TEST_LOADAVG_FILE='$T/loadavg' '$T/bin/gmb' run --backend opencl \
--results '$T/tty' --profiles '$T/eta.conf' --only hang,zzz" /dev/null >"$T/tty.out" 2>&1
        etas=$(tr '\r' '\n' <"$T/tty.out" | grep -a ' 1/2 hang ' |
            sed -n 's/.* ETA \([0-9]*:[0-9]*\) .*/\1/p' |
            awk -F: '{ print $1 * 60 + $2 }' | tr '\n' ' ')
        check "suiteload tty: the bar drawn while hang ran ($etas)" test "$(wc -w <<<"$etas")" -ge 5
        check "suiteload tty: the ETA never 0:00 and never falling once hang overran ($etas)" \
            /usr/bin/python3 -c "
import sys; e = [int(x) for x in sys.argv[1].split()]
h = len(e) // 2
sys.exit(0 if e and min(e) > 0 and e[-1] >= 20 and e[-1] > e[0]
         and all(b >= a for a, b in zip(e[h:], e[h + 1:])) else 1)" "$etas"
    else
        skip "$TAG suiteload tty: no script(1) for a pseudo-terminal"
    fi
    rm -f "$T/bin/gmb-hang"
fi

# --- CUDA without a driver: says so (only where that is the fact) -----------------------------
SLS="$PWD/$BIN/gmb-stream"
"$SLS" --backend cuda --sizes 4KiB --out "$T/cuda" >"$T/out" 2>"$T/err"
slrc=$?
if grep -q "not built" "$T/err"; then
    skip "$TAG suiteload cuda: gmb built without CUDA"
elif ls /dev/nvidia* >/dev/null 2>&1 ||
    /usr/bin/python3 -c "import ctypes; ctypes.CDLL('libcuda.so.1')" 2>/dev/null; then
    skip "$TAG suiteload cuda: an NVIDIA driver (library or device) is here"
else
    check "suiteload cuda: no driver: skipped (77)" test "$slrc" = 77
    check "suiteload cuda: the reason says there is no NVIDIA driver, one line" test \
        "$(wc -l <"$T/err")$(grep -c '^gmb-stream: skipped: no CUDA device: no NVIDIA driver: '\
'libcuda.so.1 not found and no /dev/nvidia\* device (cudaGetDeviceCount: ' "$T/err")" = 11
    check "suiteload cuda: not the runtime's 'insufficient driver' text" \
        bash -c "! grep -q 'is insufficient' '$T/err'"
fi
