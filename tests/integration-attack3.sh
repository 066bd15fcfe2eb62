# integration-attack3.sh - what an attack on gmb found (issue 20, third round): a hangup stops
# a program and the suite as SIGTERM does (finished points kept, no orphan, the signal named),
# bad output places are found before measuring, a stdout that cannot be written is an error,
# and options that defeat a run are refused before anything is made.

# points_in LOG: how many point rows (the last word is the verification) LOG holds
points_in() { cat "$@" 2>/dev/null | grep -cE ' (full|sampled) *$'; }

if have_opencl; then
    # ---- SIGHUP: as SIGTERM ---------------------------------------------------------------
    # the suite in its own session (no terminal: setsid), SIGHUP to gmb alone
    setsid "$G" run --backend opencl --out "$T/hup" --only stream -- --time-cap 0.2 \
        >"$T/hup.out" 2>"$T/hup.err" &
    pid=$!
    for _ in $(seq 900); do
        [ "$(points_in "$T"/hup/*/*/stream.log)" -ge 2 ] && break
        sleep 0.1
    done
    kill -HUP "$pid"
    wait "$pid"
    rc=$?
    check "SIGHUP: gmb run exits 129 (got $rc)" test "$rc" = 129
    check "SIGHUP: gmb run leaves no program running" bash -c \
        "! pgrep -f 'gm[b]-.*$T/hup' >/dev/null"
    m=$(ls "$T"/hup/*/*/run.json 2>/dev/null)
    check "SIGHUP: run.json says interrupted by SIGHUP during stream" rec fields "$m" \
        status=interrupted interrupted_by=SIGHUP interrupted=stream
    rec=$(ls "$T"/hup/*/*/*-stream.json 2>/dev/null)
    check "SIGHUP: stream's record keeps its points, interrupted by SIGHUP" \
        rec stream-interrupted-kept "$rec" SIGHUP 2

    # a program run directly, SIGHUP: its finished points are kept
    "$BIN/gmb-stream" --backend opencl --sizes 4KiB:1GiB:x2 --kernels all --time-cap 0.2 \
        --out "$T/hup1" >"$T/hup1.out" 2>"$T/hup1.err" &
    pid=$!
    for _ in $(seq 600); do
        [ "$(points_in "$T/hup1.out")" -ge 2 ] && break
        sleep 0.1
    done
    kill -HUP "$pid"
    wait "$pid"
    rc=$?
    check "SIGHUP: gmb-stream exits 129 (got $rc)" test "$rc" = 129
    rec=$(ls "$T"/hup1/*-stream.json 2>/dev/null)
    check "SIGHUP: gmb-stream's record keeps its points, interrupted by SIGHUP" \
        rec stream-interrupted-kept "$rec" SIGHUP 2
    check "SIGHUP: gmb-stream says so on its last line" grep -q \
        "interrupted by Hangup: [0-9]* finished points kept in the record" "$T/hup1.err"

    # a terminal's Ctrl-C reaches the whole process group: the program gets it from the
    # terminal and again from gmb run, and must take the two as one (its record kept)
    setsid "$G" run --backend opencl --out "$T/pg" --only stream -- --time-cap 0.2 \
        >"$T/pg.out" 2>"$T/pg.err" &
    pid=$!
    for _ in $(seq 900); do
        [ "$(points_in "$T"/pg/*/*/stream.log)" -ge 2 ] && break
        sleep 0.1
    done
    kill -INT -- "-$pid"
    wait "$pid"
    rc=$?
    check "SIGINT to the process group: gmb run exits 130 (got $rc)" test "$rc" = 130
    rec=$(ls "$T"/pg/*/*/*-stream.json 2>/dev/null)
    check "SIGINT to the process group: stream's record is kept, interrupted by SIGINT" \
        rec fields "$rec" status=interrupted interrupted_by=SIGINT

fi

# ---- the default output directory, checked before measuring -------------------------------
# a working directory the user cannot write, no --out: refused before the device is opened
# (tests run as root, who writes anywhere: as nobody, through setpriv)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
    NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    mkdir -p "$T/rocwd"
    chmod 711 "$T" # nobody passes through $T to the working directory, reads nothing else
    chmod 755 "$T/rocwd"
    prog="$PWD/$BIN/gmb-stream"
    # the sanitizers' suppressions, where nobody can read them (a checkout may be mode 0700,
    # as mktemp -d makes it)
    cp tests/lsan.supp "$T/lsan.supp" && chmod 644 "$T/lsan.supp"
    supp="$PWD/tests/lsan.supp"
    asan=${ASAN_OPTIONS:-} asan=${asan//"$supp"/$T/lsan.supp}
    lsan=${LSAN_OPTIONS:-} lsan=${lsan//"$supp"/$T/lsan.supp}
    (cd "$T/rocwd" && ASAN_OPTIONS="$asan" LSAN_OPTIONS="$lsan" \
        expect "default --out unwritable: exit 3" 3 "${NOBODY[@]}" "$prog" \
        --backend opencl --sizes 4KiB:64KiB:x4 --kernels read)
    check "default --out unwritable: one line, says where and why" bash -c \
        "[ \$(wc -l <'$T/err') = 1 ] &&
         grep -q 'results: cannot write in .: Permission denied (the default --out' '$T/err'"
    check "default --out unwritable: nothing measured (no table on stdout)" test ! -s "$T/out"
    chmod 700 "$T"
else
    skip "$TAG attack3: default --out unwritable: needs root and setpriv to run as nobody"
fi

# ---- standard output that cannot be written: exit 3, one line -----------------------------
R3=$(ls "$PWD"/results/nvidia-h200/*/run.json | head -1)
R3=${R3%/run.json}
full_out() { # NAME CMD...: CMD with stdout on /dev/full (ENOSPC), then closed (EBADF)
    local name=$1
    shift
    "$@" >/dev/full 2>"$T/err"
    local rc=$?
    check "stdout full: $name: exit 3 (got $rc)" test "$rc" = 3
    check "stdout full: $name: one line with the reason" bash -c \
        "[ \$(grep -c 'cannot write to standard output' '$T/err') = 1 ] &&
         grep -q '^[a-z-]*: error: cannot write to standard output: No space left on device$' \
             '$T/err'"
    "$@" >&- 2>"$T/err"
    rc=$?
    check "stdout closed: $name: exit 3 (got $rc), says so" bash -c \
        "[ $rc = 3 ] &&
         grep -q 'error: cannot write to standard output: Bad file descriptor$' '$T/err'"
}
if [ -d /dev ] && [ -c /dev/full ]; then
    full_out "gmb table" "$G" table "$R3"
    full_out "gmb table --format csv" "$G" table "$R3" --format csv
    full_out "gmb compare" "$G" compare "$R3" "$R3"
    full_out "gmb report --out -" "$G" report "$R3" --out -
    full_out "gmb list" "$G" list
    full_out "gmb --help" "$G" --help
    full_out "gmb table --help" "$G" table --help
    full_out "gmb --version" "$G" --version
    full_out "gmb-stream --help" "$BIN/gmb-stream" --help
    if have_opencl; then
        full_out "gmb devices" "$G" devices
        full_out "gmb-stream (a measurement)" "$BIN/gmb-stream" "${FAST[@]}" --sizes 4KiB:64KiB:x4 \
            --kernels read --no-record
    fi
else
    skip "$TAG attack3: stdout full: no /dev/full here"
fi
# a reader that went away (| head) is no error: quiet, with or without SIGPIPE ignored
for ign in 0 1; do
    (
        [ $ign = 1 ] && trap '' PIPE
        { sleep 0.3; "$G" table "$R3"; echo "rc=$?" >"$T/pipe.rc"; } 2>"$T/pipe.err" | true
    )
    check "stdout a closed pipe (SIGPIPE ignored: $ign): quiet, 141" bash -c \
        "[ ! -s '$T/pipe.err' ] && grep -qx 'rc=141' '$T/pipe.rc'"
done

# ---- gmb run -- OPTIONS: what the suite sets itself, or what defeats a run, is refused ------
for opt in --no-record --list-devices --help -h --version --summary --man "--device 5" \
    "--device=0" "--dev 1" "--backend cuda" "--back=opencl" "--out $T/x" "--ou=$T/x" "--no-r" \
    "--time-cap 0.1 --no-record"; do
    # shellcheck disable=SC2086 # the words of opt are the options
    bad_input attack3 "gmb run -- $opt" "$T/r4" "$G" run --backend opencl --out "$T/r4" -- $opt
    check "attack3: gmb run -- $opt: says why" grep -qE "after '--'(.*)?: " "$T/err"
done

# ---- gmb run --profiles FILE: a file the user named must be there --------------------------
bad_input attack3 "gmb run --profiles a file that does not exist" "$T/r5" "$G" run \
    --backend opencl --out "$T/r5" --profiles "$T/no-such.conf"
check "attack3: --profiles missing: names the file and the reason" grep -q \
    "profiles $T/no-such.conf: No such file or directory" "$T/err"
# the default profiles file missing (no --profiles): a warning, the generic profile runs
if have_opencl; then
    mkdir -p "$T/pbin" "$T/noplots"
    cp "$G" "$T/pbin/gmb"
    printf '#!/bin/sh\nexit 0\n' >"$T/pbin/gmb-aaa" # a program that measures nothing, ok
    chmod +x "$T/pbin/gmb-aaa"
    GMB_PLOTS="$T/noplots" expect "attack3: the default profiles file missing: the run goes on" 0 \
        "$T/pbin/gmb" run --backend opencl --out "$T/r5d" --only aaa
    check "attack3: the default profiles file missing: a warning names it" grep -q \
        "warning: cannot read $T/noplots/profiles.conf: the generic quick profile is used" "$T/err"
fi

# ---- the driver's options as strictly as the programs' ------------------------------------
bad_input attack3 "gmb run --device ' 0' (as gmb-atomic refuses it)" "$T/r6x" "$G" run \
    --out "$T/r6x" --device ' 0'
bad_input attack3 "gmb run --device 0x1" "$T/r6x" "$G" run --out "$T/r6x" --device 0x1
bad_input attack3 "gmb run --quick --full" "$T/r6x" "$G" run --out "$T/r6x" --quick --full
check "attack3: gmb run --quick --full: says choose one" grep -q "choose one profile" "$T/err"
bad_input attack3 "gmb run --full --quick" "$T/r6x" "$G" run --out "$T/r6x" --full --quick
for rows in "" ",,," " , "; do
    bad_input attack3 "gmb table --rows '$rows'" "$T/r6x" "$G" table "$R3" --rows "$rows"
    check "attack3: gmb table --rows '$rows': prints no table" test ! -s "$T/out"
done
expect "attack3: gmb table --rows 1 still works" 0 "$G" table "$R3" --rows 1
check "attack3: gmb table --rows 1: the head and one row" test "$(grep -c '^| ' "$T/out")" = 2

# ---- gmb run --out D with a link planted at D/<device>: refused, nothing written through it -
if have_opencl; then
    expect "attack3: a first run makes D/<device>" 0 "$T/pbin/gmb" run --backend opencl \
        --out "$T/r6" --only aaa
    slugdir=$(ls -d "$T"/r6/*/ | head -1)
    slugdir=${slugdir%/}
    if [ -n "$slugdir" ]; then
        rm -rf "$slugdir"
        mkdir -p "$T/r6victim"
        ln -s "$T/r6victim" "$slugdir"
        GMB_PLOTS="$PWD/plots" expect "attack3: a link at D/<device>: exit 3" 3 "$T/pbin/gmb" \
            run --backend opencl --out "$T/r6" --only aaa
        check "attack3: a link at D/<device>: one line naming the link" bash -c \
            "[ \$(wc -l <'$T/err') = 1 ] && grep -q '$slugdir is a symbolic link' '$T/err'"
        check "attack3: a link at D/<device>: nothing made through it" \
            test -z "$(ls -A "$T/r6victim")"
    else
        fail "$TAG attack3: a first run made no D/<device>"
    fi
fi
