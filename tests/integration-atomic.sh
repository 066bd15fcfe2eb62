# integration-atomic.sh - gmb-atomic end to end on OpenCL/PoCL: every scope, op and spacing over
# a few contentions, verified after every launch (counters and the atom checksums) and
# recorded; the capped shared points, the summary, figures; iters raised by the calibration;
# planted errors, bad input, CUDA without a GPU, gmb run. CPU numbers are never asserted.
AT="$PWD/$BIN/gmb-atomic"
if ! have_opencl; then
    skip "$TAG atomic integration: no OpenCL device (install pocl-opencl-icd)"
else
    expect "gmb-atomic --help" 0 "$AT" --help && check "atomic help explains the per-address time" \
        grep -q "ns_per_update_address = median kernel time / the adds one address received" "$T/out"
    expect "gmb list (atomic)" 0 "$G" list && check "gmb list names atomic" grep -q "^atomic " "$T/out"

    # --- every scope x op x spacing over six contentions, each launch verified ---------------
    SH="1,4,64,256,1024,all"
    if expect "atomic: scopes, ops, spacings, contentions" 0 "$AT" "${FAST[@]}" --sharers "$SH" \
        --spacing 4,128 --out "$T/at"; then
        rec=$(ls "$T"/at/*-atomic.json)
        csv=$(ls "$T"/at/*-atomic.csv)
        np=$(json "$rec" "len(r['points'])")
        check "atomic: record validates" "$VALIDATE" "$SCHEMA" "$rec"
        check "atomic: record status ok, benchmark atomic" test "$(json "$rec" \
            "r['status'], r['benchmark']")" = "ok atomic"
        check "atomic: every scope x op x spacing measured" test "$(json "$rec" \
            "sorted({(p['params']['scope'], p['params']['op'], p['params']['spacing_bytes']) for p in r['points']})")" = \
            "[('global', 'atom', 4), ('global', 'atom', 128), ('global', 'red', 4), ('global', 'red', 128), ('shared', 'atom', 4), ('shared', 'atom', 128), ('shared', 'red', 4), ('shared', 'red', 128)]"
        # the sharers of a curve: the asked ones capped to the grid (global) or the group
        # (shared), each once, all = the grid / the group (one counter: at the first spacing
        # only)
        check "atomic: sharers capped to the grid / group, no point twice" test "$(json "$rec" \
            "all(sorted(q['params']['sharers'] for q in r['points'] if (q['params']['scope'], q['params']['op'], q['params']['spacing_bytes']) == (p['params']['scope'], p['params']['op'], p['params']['spacing_bytes'])) == sorted({m for m in (min(x, p['params']['work_items'] if p['params']['scope'] == 'global' else p['extra']['group_size']) for x in (1, 4, 64, 256, 1024, 1 << 40)) if p['params']['spacing_bytes'] == 4 or m < (p['params']['work_items'] if p['params']['scope'] == 'global' else p['extra']['group_size'])}) for p in r['points'])")" = True
        check "atomic: one counter measured at the first spacing only" test "$(json "$rec" \
            "sorted((p['params']['scope'], p['params']['spacing_bytes']) for p in r['points'] if p['params']['all'] and p['params']['op'] == 'red')")" = \
            "[('global', 4), ('shared', 4)]"
        check "atomic: all marks the grid's / group's one address" test "$(json "$rec" \
            "all(p['params']['all'] == (p['params']['sharers'] == (p['params']['work_items'] if p['params']['scope'] == 'global' else p['extra']['group_size'])) for p in r['points'])")" = True
        check "atomic: a capped shared point says so" test "$(json "$rec" \
            "all(('sharers_capped' in p['extra']) == (p['extra']['group_size'] < 1024 and p['params']['all']) and (not p['extra'].get('sharers_capped') or p['extra']['sharers_capped'].endswith('capped to the group size %d' % p['extra']['group_size'])) for p in r['points'] if p['params']['scope'] == 'shared')")" = True
        check "atomic: counters per point (global ceil(items / sharers), shared per group)" \
            test "$(json "$rec" \
            "all(p['extra']['counters'] == (-(-p['params']['work_items'] // p['params']['sharers']) if p['params']['scope'] == 'global' else p['extra']['groups'] * (p['extra']['group_size'] // p['params']['sharers'])) for p in r['points'])")" = True
        check "atomic: every point verified after every launch, none failed" test "$(json "$rec" \
            "all(p['extra']['verified'] == 'full' and p['extra']['launches_failed'] == 0 and p['extra']['launches_verified'] > p['time_ns']['n'] for p in r['points'])")" = True
        check "atomic: $np verified rows printed, each ending in its verdict" test \
            "$(grep -cE ' full$' "$T/out")" = "$np"
        check "atomic: the capped rows say so before the verdict" test \
            "$(grep -cE ' \(capped\) full$' "$T/out")" = "$(json "$rec" \
            "sum('sharers_capped' in p['extra'] for p in r['points'])")"
        check "atomic: iters a multiple of 4 (the loop's unroll)" test "$(json "$rec" \
            "all(p['params']['iters'] % 4 == 0 and p['params']['iters'] >= 4 for p in r['points'])")" = True
        check "atomic: throughput positive, = items x iters / median time" test "$(json "$rec" \
            "all(0 < p['metrics']['atomics_Gops']['median'] and abs(p['metrics']['atomics_Gops']['median'] - p['params']['work_items'] * p['params']['iters'] / p['time_ns']['median']) < 1e-6 * p['metrics']['atomics_Gops']['median'] for p in r['points'])")" = True
        check "atomic: ns per update of one address = median time / (sharers x iters)" \
            test "$(json "$rec" \
            "all(abs(p['metrics']['ns_per_update_address']['median'] - p['time_ns']['median'] / (p['params']['sharers'] * p['params']['iters'])) < 1e-6 * p['metrics']['ns_per_update_address']['median'] for p in r['points'])")" = True
        check "atomic: shared points hold shared memory for their counters, global ones none" test "$(json "$rec" \
            "all(p['extra']['shared_bytes'] == ((p['extra']['group_size'] // p['params']['sharers'] - 1) * p['params']['spacing_bytes'] + 4 if p['params']['scope'] == 'shared' else 0) for p in r['points'])")" = True
        check "atomic: contention summary per scope and op, ratio = distinct / one" test "$(json "$rec" \
            "sorted(k for k, v in r['results']['contention'].items() if abs(v['distinct_over_one'] - v['distinct_Gops'] / v['one_address_Gops']) < 1e-9 * v['distinct_over_one'] and v['spacing_bytes'] == 4 and v['one_address_ns_per_update'] > 0)")" = \
            "['global_atom', 'global_red', 'shared_atom', 'shared_red']"
        check "atomic: the summary printed and recorded" grep -qF \
            "# atomic: $(json "$rec" "r['results']['summary']")" "$T/out"
        check "atomic: nothing skipped" test "$(json "$rec" "r['results']['skipped']")" = "[]"
        check "atomic csv: header + a row per point" test "$(wc -l <"$csv")" = $((np + 1))
        check "atomic csv header carries params and metrics" \
            grep -q "^scope,op,sharers,all,spacing_bytes,work_items,iters,atomics_Gops," "$csv"
        if command -v gnuplot >/dev/null; then
            expect "atomic: figures" 0 "$G" plot "$T/at" --out "$T/atfig" &&
                check "atomic: throughput and per-address figures" test \
                    -s "$T/atfig/atomic-throughput.png" -a -s "$T/atfig/atomic-per-address.png"
        fi
    fi

    # --- a longer sample: the calibration raises iters (large counters and checksums) ------
    if expect "atomic: calibrated iters" 0 "$AT" "${FAST[@]}" --ops atom --sharers all \
        --spacing 4 --min-sample-us 3000 --out "$T/cal"; then
        check "atomic: iters raised above 4 and verified" test "$(json "$(ls "$T"/cal/*.json)" \
            "[(p['params']['scope'], p['params']['iters'] > 4, p['extra']['verified']) for p in r['points']]")" = \
            "[('global', True, 'full'), ('shared', True, 'full')]"
    fi
    # --- without sharers 1 and all at one spacing: no summary, said so ---------------------
    expect "atomic: one address only" 0 "$AT" "${FAST[@]}" --scopes global --ops red \
        --sharers all --spacing 4,128 --no-record &&
        check "atomic: nothing to summarise without sharers 1" grep -q \
            "^# atomic: nothing to summarise" "$T/out"

    # --- a planted wrong counter (and, for atom, a wrong checksum) fails verification -------
    for sc in global shared; do
        for op in red atom; do
            what="counter"
            [ "$op" = atom ] && what="counter, then the old values"
            [ "$sc" = global ] && what="$what, then a word between counters"
            if expect "atomic: planted error ($sc $op) exits 1" 1 "$AT" "${FAST[@]}" --scopes "$sc" \
                --ops "$op" --sharers 4 --spacing 128 --inject-error --out "$T/inj-$sc-$op"; then
                check "atomic: planted error ($sc $op) reported" \
                    grep -q "verification failed: $sc $op, spacing 128 B, sharers 4: launch 1: counter" "$T/err"
                r="$(ls "$T"/inj-$sc-$op/*.json)"
                check "atomic: planted error ($sc $op): record marked" test "$(json "$r" \
                    "r['status'], r['points'][0]['extra']['verified']")" = "verification_failed FAILED"
                check "atomic: planted error ($sc $op): $what caught" test "$(json "$r" \
                    "[f.split(': ')[1].split(' ')[0] for f in r['points'][0]['extra']['failures']], r['points'][0]['extra']['launches_failed']")" = \
                    "$(case $sc-$op in # global: then a word between counters
                        global-red) echo "['counter', 'word'] 2" ;;
                        global-atom) echo "['counter', 'the', 'word'] 3" ;;
                        shared-red) echo "['counter'] 1" ;;
                        *) echo "['counter', 'the'] 2" ;;
                        esac)"
            fi
        done
    done

    # --- bad input: one line on stderr, exit 2, nothing written ----------------------------
    at_bad() { bad_input atomic "$1" "$T/atbad" "$AT" "${FAST[@]}" --out "$T/atbad" "${@:2}"; } # name args...
    at_bad "--sharers 0" --sharers 0
    at_bad "--sharers 3 (not a power of two)" --sharers 3
    at_bad "--sharers 2^31" --sharers 2147483648
    at_bad "--sharers x" --sharers 1,x
    at_bad "--sharers empty" --sharers ,
    at_bad "--spacing 2" --spacing 2
    at_bad "--spacing 6 (not a multiple of 4)" --spacing 6
    at_bad "--spacing 8KiB" --spacing 8KiB
    at_bad "--scopes foo" --scopes foo
    at_bad "--ops foo" --ops foo
    at_bad "--min-sample-us 0" --min-sample-us 0
    at_bad "unknown option" --frobnicate
    at_bad "--device 99" --device 99

    # --- CUDA without a GPU: skipped with the reason ---------------------------------------
    if expect "atomic --backend cuda without a GPU exits 77" 77 "$AT" --backend cuda \
        --out "$T/atcuda"; then
        check "atomic cuda skip says why" grep -qE "no CUDA device|not built" "$T/err"
        check "atomic cuda skip writes nothing" test ! -e "$T/atcuda"
    fi

    # --- the driver runs it ----------------------------------------------------------------
    expect "gmb run atomic" 0 "$G" run atomic "${FAST[@]}" --sharers 1,all --spacing 4 \
        --out "$T/atdrv" && check "gmb run atomic recorded" test -n "$(ls "$T"/atdrv/*-atomic.json)"
fi
