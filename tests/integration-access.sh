# integration-access.sh - gmb-access end to end on OpenCL/PoCL: both patterns over two buffers
# verified and recorded (sums recomputed on the host, in full and sampled), the granularity
# verdict and misalignment summary (the worst offset selected by the sweep, its ratio and test
# from a confirmation measured anew), table rows and figures, planted errors (in the sweep and
# in a confirmation), bad input, CUDA without a GPU. CPU numbers are never asserted.
AC="$PWD/$BIN/gmb-access"
if ! have_opencl; then
    skip "$TAG access integration: no OpenCL device (install pocl-opencl-icd)"
else
    expect "gmb-access --help" 0 "$AC" --help && check "access help explains the granularity" \
        grep -q "the granularity the memory system fetches" "$T/out"
    expect "gmb list (access)" 0 "$G" list && check "gmb list names access" grep -q "^access " "$T/out"

    # --- both patterns, two buffers: 6 strides + 4 offsets each and 2 confirmations, every
    # point verified ----------------------------------------------------------------------
    if expect "access: strides and offsets over two buffers" 0 "$AC" "${FAST[@]}" \
        --sizes 256KiB,4MiB --strides 4:128:x2 --offsets 0,4,32,124 --out "$T/acc"; then
        rec=$(ls "$T"/acc/*-access.json)
        check "access: 24 verified rows" test "$(grep -cE ' full *$' "$T/out")" = 24
        check "access: record validates" "$VALIDATE" "$SCHEMA" "$rec"
        check "access: 24 points, every one verified in full (confirmations too)" test "$(json "$rec" \
            "sum(p['extra']['verified'] == 'full' for p in r['points'])")" = 24
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
        # the sweep selects: its aligned and lowest misaligned bandwidths, as its points have them
        check "access: misalignment per buffer, the sweep's worst offset and figures" test "$(json "$rec" \
            "[(m['worst_offset_bytes'] in (4, 32, 124), m['aligned_GBps'] == [p['metrics']['bw_GBps']['median'] for p in r['points'] if p['params']['pattern'] == 'offset' and 'pass' not in p['params'] and p['params']['size_bytes'] == m['size_bytes'] and p['params']['offset_bytes'] == 0][0], sorted((p['metrics']['bw_GBps']['median'], p['params']['offset_bytes']) for p in r['points'] if p['params']['pattern'] == 'offset' and 'pass' not in p['params'] and p['params']['size_bytes'] == m['size_bytes'] and p['params']['offset_bytes'])[0] == (m['worst_GBps'], m['worst_offset_bytes'])) for m in r['results']['misalignment']]")" = \
            "[(True, True, True), (True, True, True)]"
        # the confirmation estimates: two points of its own per buffer (aligned, then the worst
        # offset), keyed apart from the sweep's, and the ratio and medians are theirs
        check "access: confirmation points, aligned then worst, pass confirm" test "$(json "$rec" \
            "[[p['params']['offset_bytes'] for p in r['points'] if p['params'].get('pass') == 'confirm' and p['params']['size_bytes'] == m['size_bytes']] == [0, m['worst_offset_bytes']] for m in r['results']['misalignment']]")" = "[True, True]"
        check "access: every point's params (less reads, reps) unique" test "$(json "$rec" \
            "len(r['points']) == len({tuple(sorted((k, v) for k, v in p['params'].items() if k not in ('reads', 'reps'))) for p in r['points']})")" = True
        check "access: confirm medians are the confirmation points'" test "$(json "$rec" \
            "[[m['confirm'][k + '_GBps'] for k in ('aligned', 'worst')] == [p['metrics']['bw_GBps']['median'] for p in r['points'] if p['params'].get('pass') == 'confirm' and p['params']['size_bytes'] == m['size_bytes']] for m in r['results']['misalignment']]")" = "[True, True]"
        check "access: worst_over_aligned = confirm worst / aligned" test "$(json "$rec" \
            "[abs(m['worst_over_aligned'] - m['confirm']['worst_GBps'] / m['confirm']['aligned_GBps']) < 1e-9 for m in r['results']['misalignment']]")" = "[True, True]"
        check "access: p_value in [0, 1], significant = p < 0.05 and the CIs disjoint" test "$(json "$rec" \
            "[(0 <= c['p_value'] <= 1, c['significant'] is (c['p_value'] < 0.05 and (c['worst_ci_hi_GBps'] < c['aligned_ci_lo_GBps'] or c['aligned_ci_hi_GBps'] < c['worst_ci_lo_GBps']))) for c in (m['confirm'] for m in r['results']['misalignment'])]")" = \
            "[(True, True), (True, True)]"
        check "access: the p-value is the Mann-Whitney test of the confirmations' sample bandwidths" \
            test "$(/usr/bin/python3 - "$rec" <<'PY'
import json, math, sys
r = json.load(open(sys.argv[1]))
def rates(p):
    return [4 * p["params"]["reads"] * p["params"]["reps"] / t for t in p["samples_ns"]]
def mw(a, b):  # two-sided, normal approximation, tie and continuity corrections
    t = sorted([(v, 0) for v in a] + [(v, 1) for v in b])
    n, ra, tie, i = len(t), 0.0, 0.0, 0
    while i < n:
        j = i
        while j + 1 < n and t[j + 1][0] == t[i][0]:
            j += 1
        c = j - i + 1
        ra += sum((i + j) / 2 + 1 for q in range(i, j + 1) if t[q][1] == 0)
        tie += c**3 - c
        i = j + 1
    u, mu = ra - len(a) * (len(a) + 1) / 2, len(a) * len(b) / 2
    var = len(a) * len(b) / 12 * (n + 1 - tie / (n * (n - 1)))
    return 1.0 if var <= 0 else math.erfc(max(0, abs(u - mu) - 0.5) / math.sqrt(var) / math.sqrt(2))
ok = []
for m in r["results"]["misalignment"]:
    a, w = [p for p in r["points"] if p["params"].get("pass") == "confirm" and p["params"]["size_bytes"] == m["size_bytes"]]
    ok.append(abs(mw(rates(a), rates(w)) - m["confirm"]["p_value"]) < 1e-9)
print(ok)
PY
)" = "[True, True]"
        check "access: the summary printed and recorded" grep -qF \
            "# access: $(json "$rec" "r['results']['summary']")" "$T/out"
        check "access: the summary gives each confirmed ratio and whether it is significant" test "$(json "$rec" \
            "[('misaligned by %d B, %.0f%% of the aligned bandwidth (%s, p ' % (m['worst_offset_bytes'], 100 * m['worst_over_aligned'], 'significant' if m['confirm']['significant'] else 'not significant')) in r['results']['summary'] for m in r['results']['misalignment']]")" = "[True, True]"
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

    # --- a planted wrong sum in a confirmation launch (the second one planted; the first lands
    # in the stride point): verified like the sweep's, no ratio from it ---------------------
    if expect "access: planted error in a confirmation exits 1" 1 "$AC" "${FAST[@]}" \
        --sizes 256KiB --strides 8 --offsets 0,4 --inject-error --out "$T/inj-confirm"; then
        rec=$(ls "$T"/inj-confirm/*.json)
        check "access: planted error in a confirmation reported" grep -q \
            "verification failed: offset, 256 KiB, stride 4, offset 0 (confirmation)" "$T/err"
        check "access: planted error in a confirmation: its point marked, no ratio" test "$(json "$rec" \
            "r['status'], [(p['params'].get('pass'), p['params']['offset_bytes'], p['extra']['verified']) for p in r['points'] if p['params']['pattern'] == 'offset'], r['results']['misalignment'][0]['confirm'], 'worst_over_aligned' in r['results']['misalignment'][0]")" = \
            "verification_failed [(None, 0, 'full'), (None, 4, 'full'), ('confirm', 0, 'FAILED'), ('confirm', 4, 'full')] None False"
        check "access: planted error in a confirmation: the summary says no ratio" grep -qF \
            "256 KiB: misaligned by 4 B, no ratio (a confirmation launch failed verification)." "$T/out"
    fi
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
