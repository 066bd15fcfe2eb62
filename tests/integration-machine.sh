# integration-machine.sh - gmb run --devices on PoCL's two CPU devices (POCL_DEVICES="pthread
# pthread"): the suite on each device in turn, each in its own run directory; the peer matrix
# from gmb-copy's peers profile; machine.json, table.md (a column per device) and peers.md;
# bad lists refused with nothing written; a stop keeps every finished record.
if have_opencl; then
    TWO=(env POCL_DEVICES="pthread pthread")
    QUICK=(-- --warmup 0 --min-samples 2 --max-samples 3 --time-cap 0.05 --quiet)
    if expect "machine: --devices all, two devices" 0 "${TWO[@]}" "$G" run --backend opencl \
        --devices all --only stream,copy --out "$T/m" "${QUICK[@]}"; then
        md=$(tail -1 "$T/out")
        check "machine: the last line is the machine directory" test -f "$md/machine.json"
        check "machine: under DIR/machine-<host>/" bash -c "case '$md' in '$T/m/machine-'*) ;; \
            *) exit 1;; esac"
        check "machine: both devices complete, each its own run and records" \
            rec machine-devices "$md/machine.json" complete,complete
        check "machine: the copy-engine peer matrix, 2 x 2" \
            rec machine-peer-matrix "$md/machine.json" 2
        check "machine: peers.md has the matrix" \
            grep -qE '^\| device 0 \| · \| [0-9.]+ \|$' "$md/peers.md"
        check "machine: table.md has a column per device" \
            grep -qE '^\| Metric \| Unit \| device 0: .* \| device 1: .* \|$' "$md/table.md"
        check "machine: table.csv too" test -s "$md/table.csv"
        check "machine: the matrix printed" grep -q '^== peer copies (peers.md)' "$T/out"
    fi

    # one device of two: no pair, so no peer step
    if expect "machine: --devices 1" 0 "${TWO[@]}" "$G" run --backend opencl --devices 1 \
        --only copy --out "$T/m1" "${QUICK[@]}"; then
        md=$(tail -1 "$T/out")
        check "machine: --devices 1: one device, device 1" \
            rec items-count "$md/machine.json" devices 1 index=1
        check "machine: --devices 1: no pair, said" \
            rec fields "$md/machine.json" "peers.why=one device: no pair"
    fi

    # a wrong result on every device: exit 1, each device marked, the peer step still runs
    if expect "machine: --inject-error: exit 1" 1 "${TWO[@]}" "$G" run --backend opencl \
        --devices all --only copy --out "$T/mf" "${QUICK[@]}" --inject-error; then
        md=$(tail -1 "$T/out")
        check "machine: --inject-error: every device marked" \
            rec machine-devices "$md/machine.json" verification_failed,verification_failed
    fi

    # bad lists: exit 2, one line, nothing written
    for bad in "--devices 5" "--devices x" "--devices ''" \
        "--device 0 --devices all"; do
        rm -rf "$T/bad"
        eval "set -- $bad"
        expect "machine bad input: $bad" 2 "${TWO[@]}" "$G" run --backend opencl "$@" \
            --out "$T/bad"
        check "machine bad input: $bad: one line on stderr" test "$(wc -l <"$T/err")" = 1
        check "machine bad input: $bad: nothing written" \
            bash -c "[ ! -e '$T/bad' ] || [ -z \"\$(ls -A '$T/bad')\" ]"
    done
    rm -rf "$T/bad"
    expect "machine bad input: a refused option after --" 2 "${TWO[@]}" "$G" run \
        --backend opencl --devices all --only copy --out "$T/bad" -- --out x
    check "machine bad input: a refused option after --: nothing written" \
        bash -c "[ ! -e '$T/bad' ] || [ -z \"\$(find '$T/bad' -type f)\" ]"

    # SIGINT during the first device: exit 130, device 0 interrupted with its finished
    # records, device 1 not run, no peer step
    "${TWO[@]}" "$G" run --backend opencl --devices all --only stream --out "$T/mi" -- \
        --sizes 4KiB:1GiB:x2 --kernels all --time-cap 0.2 >"$T/i.out" 2>"$T/i.err" &
    pid=$!
    for _ in $(seq 900); do
        [ "$(cat "$T"/mi/machine-*/*/*/*/stream.log 2>/dev/null | grep -cE ' (full|sampled) *$')" \
            -ge 2 ] && break
        sleep 0.1
    done
    kill -INT "$pid"
    wait "$pid"
    rc=$?
    check "machine: SIGINT: exit 130 (got $rc)" test "$rc" = 130
    mj=$(ls "$T"/mi/machine-*/*/machine.json 2>/dev/null)
    check "machine: SIGINT: interrupted by SIGINT" \
        rec fields "$mj" status=interrupted interrupted_by=SIGINT
    check "machine: SIGINT: device 0 interrupted, device 1 not run" \
        rec machine-devices "$mj" interrupted,not_run
    srec=$(ls "$T"/mi/machine-*/*/*/*/*-stream.json 2>/dev/null | head -1)
    check "machine: SIGINT: the stream record kept, interrupted" \
        rec fields "$srec" status=interrupted interrupted_by=SIGINT
    check "machine: SIGINT: no peer step" rec items-count "$mj" peers.runs 0
fi
