# integration-access.sh - gmb-access end to end on OpenCL/PoCL: both patterns over two buffers
# verified and recorded (sums recomputed on the host, in full and sampled), the granularity
# verdict and misalignment summary, table rows and figures, planted errors, bad input, CUDA
# without a GPU. CPU numbers are never asserted.
AC="$PWD/$BIN/gmb-access"
if ! have_opencl; then
    skip "$TAG access integration: no OpenCL device (install pocl-opencl-icd)"
else
    expect "gmb-access --help" 0 "$AC" --help && check "access help explains the granularity" \
        grep -q "the granularity the memory system fetches" "$T/out"
    expect "gmb list (access)" 0 "$G" list && check "gmb list names access" grep -q "^access " "$T/out"

    # --- both patterns, two buffers: 6 strides + 4 offsets each, every point verified --------
    if expect "access: strides and offsets over two buffers" 0 "$AC" "${FAST[@]}" \
        --sizes 256KiB,4MiB --strides 4:128:x2 --offsets 0,4,32,124 --out "$T/acc"; then
        rec=$(ls "$T"/acc/*-access.json)
        check "access: 20 verified rows" test "$(grep -cE ' full *$' "$T/out")" = 20
        check "access: record validates" "$VALIDATE" "$SCHEMA" "$rec"
        check "access: 20 points, every one verified in full" test "$(json "$rec" \
            "sum(p['extra']['verified'] == 'full' for p in r['points'])")" = 20
        check "access: reads counted as the pattern makes them" test "$(json "$rec" \
            "all(p['params']['reads'] == (p['params']['size_bytes'] - p['params']['offset_bytes']) // p['params']['stride_bytes'] for p in r['points'])")" = True
        check "access: bandwidth = 4 B per read / median time" test "$(json "$rec" \
            "all(abs(p['metrics']['bw_GBps']['median'] - 4 * p['params']['reads'] * p['params']['reps'] / p['time_ns']['median']) < 1e-6 * p['metrics']['bw_GBps']['median'] for p in r['points'])")" = True
        check "access: an odd number of passes a launch (an even one could hide a wrong sum)" \
            test "$(json "$rec" "all(p['params']['reps'] % 2 == 1 for p in r['points'])")" = True
        check "access: each granularity entry counts the points it used and left out" \
            test "$(json "$rec" "[g['points_used'] + g['points_left_out'] for g in r['results']['granularity']]")" = "[6, 6]"
        check "access: a granularity verdict per buffer" test "$(json "$rec" \
            "[g['verdict'] in ('granularity', 'none') for g in r['results']['granularity']]")" = "[True, True]"
        check "access: misalignment per buffer, against the aligned reads" test "$(json "$rec" \
            "[(m['worst_offset_bytes'] in (4, 32, 124), abs(m['worst_over_aligned'] - m['worst_GBps'] / m['aligned_GBps']) < 1e-9) for m in r['results']['misalignment']]")" = \
            "[(True, True), (True, True)]"
        check "access: the summary printed and recorded" grep -qF \
            "# access: $(json "$rec" "r['results']['summary']")" "$T/out"
        if command -v gnuplot >/dev/null; then
            expect "access: figures" 0 "$G" plot "$T/acc" --out "$T/accfig" &&
                check "access: stride and offset figures" test -s "$T/accfig/access-stride.png" -a \
                    -s "$T/accfig/access-offset.png"
        fi
    fi
    # --- reads beyond 32 Mi: sums of a sample of the work-items recomputed -----------------
    if expect "access: a buffer of 160 MiB, sampled check" 0 "$AC" "${FAST[@]}" --sizes 160MiB \
        --strides 4 --patterns stride --out "$T/big"; then
        check "access: verified by a sample" test "$(json "$(ls "$T"/big/*-access.json)" \
            "r['points'][0]['extra']['verified']")" = sampled
    fi
    expect "access: planted error, sampled check, exits 1" 1 "$AC" "${FAST[@]}" --sizes 160MiB \
        --strides 4 --patterns stride --inject-error --out "$T/big-inj"
    # --- the table reads the granularity of the largest buffer by where it lives (renamed so
    # here: a CPU's buffer and verdict are whatever they are) ------------------------------
    mkdir -p "$T/accg"
    /usr/bin/python3 - "$(ls "$T"/acc/*-access.json)" "$T/accg/x-access.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
g = r["results"]["granularity"]
g[0].update(where="cache", verdict="granularity", granularity_bytes=32)
g[1].update(where="dram", verdict="none", why="no candidate flattens the fetched bandwidth")
g[1].pop("granularity_bytes", None)
r["results"]["misalignment"][1].update(where="dram", worst_over_aligned=0.8)
json.dump(r, open(sys.argv[2], "w"))
PY
    expect "access: table" 0 "$G" table "$T/accg" &&
        check "access: table rows (DRAM none, cache 32 B, misaligned 80%)" bash -c \
            "grep -q '^| Access granularity (stride curve, DRAM buffer) | B | none claimed |' '$T/out' &&
             grep -q '^| Access granularity (stride curve, cache-resident buffer) | B | 32' '$T/out' &&
             grep -q '^| Misaligned contiguous reads, worst offset, of aligned (DRAM) | % | 80' '$T/out'"

    # --- a planted wrong sum fails verification --------------------------------------------
    for p in stride offset; do
        if expect "access: planted error ($p) exits 1" 1 "$AC" "${FAST[@]}" --sizes 256KiB \
            --strides 8 --offsets 0 --patterns "$p" --inject-error --out "$T/inj-$p"; then
            check "access: planted error ($p) reported" grep -q "verification failed: $p" "$T/err"
            check "access: planted error ($p): record marked" test "$(json "$(ls "$T"/inj-$p/*.json)" \
                "r['status'], r['points'][0]['extra']['verified']")" = "verification_failed FAILED"
        fi
    done

    # --- bad input: one line on stderr, exit 2, nothing written ----------------------------
    bada() { # name args...
        local name=$1
        shift
        rm -rf "$T/bad"
        if expect "access bad input: $name" 2 "$AC" "${FAST[@]}" --out "$T/bad" "$@"; then
            check "access bad input: $name: one line on stderr" test "$(wc -l <"$T/err")" = 1
            check "access bad input: $name: nothing written" test ! -e "$T/bad"
        fi
    }
    bada "--strides 6 (not a multiple of 4)" --sizes 64KiB --strides 6
    bada "--strides 0" --sizes 64KiB --strides 0
    bada "--offsets 3" --sizes 64KiB --offsets 3
    bada "--offsets -4" --sizes 64KiB --offsets -4
    bada "--offsets 4096" --sizes 64KiB --offsets 4096
    bada "--offsets garbage" --sizes 64KiB --offsets 0,x
    bada "--offsets without 0" --sizes 64KiB --offsets 4,8
    bada "--sizes 0" --sizes 0
    bada "--sizes 1TiB" --sizes 1TiB
    bada "a stride above the smallest buffer" --sizes 4KiB --strides 8KiB
    bada "--patterns nope" --patterns nope

    # --- CUDA without a GPU: skipped with the reason ---------------------------------------
    if expect "access --backend cuda without a GPU exits 77" 77 "$AC" --backend cuda \
        --sizes 64KiB --out "$T/cuda"; then
        check "access cuda skip says why" grep -qE "no CUDA device|not built" "$T/err"
        check "access cuda skip writes nothing" test ! -e "$T/cuda"
    fi
fi
