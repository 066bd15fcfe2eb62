# integration-signals.sh - a signal to gmb reaches the program it runs and is the one its
# record names: gmb run NAME is the program itself (no orphan after SIGTERM), and the suite
# forwards the signal that came (SIGTERM stays SIGTERM), exiting 128 + its number.
if have_opencl; then
    # gmb run NAME, SIGTERM: the same process is gmb-stream; no program runs on after it
    "$G" run stream --backend opencl --sizes 4KiB:1GiB:x2 --kernels all --time-cap 0.2 \
        --out "$T/one" >"$T/one.out" 2>"$T/one.err" &
    pid=$!
    for _ in $(seq 600); do
        [ "$(grep -cE ' (full|sampled) *$' "$T/one.out")" -ge 2 ] && break
        sleep 0.1
    done
    check "gmb run NAME: the process is the program itself" \
        grep -q "gmb-stream" "/proc/$pid/cmdline"
    kill -TERM "$pid"
    wait "$pid"
    rc=$?
    check "gmb run NAME, SIGTERM: exit 143 (got $rc)" test "$rc" = 143
    check "gmb run NAME, SIGTERM: no program left running" bash -c \
        "! pgrep -f 'gmb-strea[m].*$T/one' >/dev/null"
    rec=$(ls "$T"/one/*-stream.json 2>/dev/null)
    check "gmb run NAME, SIGTERM: the record says interrupted by SIGTERM" \
        rec fields "$rec" status=interrupted interrupted_by=SIGTERM

    # the suite, SIGTERM during a program: forwarded as SIGTERM, exit 143, the record says so
    "$G" run --backend opencl --results "$T/suite" --only bank,stream -- --time-cap 0.2 \
        >"$T/s.out" 2>"$T/s.err" &
    pid=$!
    for _ in $(seq 900); do
        [ "$(cat "$T"/suite/*/*/stream.log 2>/dev/null | grep -cE ' (full|sampled) *$')" -ge 2 ] &&
            break
        sleep 0.1
    done
    kill -TERM "$pid"
    wait "$pid"
    rc=$?
    check "gmb run, SIGTERM: exit 143 (got $rc)" test "$rc" = 143
    check "gmb run, SIGTERM: no program left running" \
        bash -c "! pgrep -f 'gm[b]-.*$T/suite' >/dev/null"
    rec=$(ls "$T"/suite/*/*/*-stream.json 2>/dev/null)
    if [ -n "$rec" ]; then
        check "gmb run, SIGTERM: stream's record says interrupted by SIGTERM" \
            rec fields "$rec" status=interrupted interrupted_by=SIGTERM
    else
        fail "$TAG gmb run, SIGTERM: stream kept no record of its finished points"
    fi
    m=$(ls "$T"/suite/*/*/run.json)
    check "gmb run, SIGTERM: the manifest says interrupted during stream" \
        rec fields "$m" status=interrupted interrupted=stream
fi
