# integration-atomic.sh - gmb-atomic end to end on OpenCL/PoCL: every scope, op and spacing over
# a few contentions, verified after every launch (counters and the atom checksums) and
# recorded; the capped shared points, the summary, figures; iters raised by the calibration;
# planted errors, bad input, CUDA without a GPU, gmb run. CPU numbers are never asserted.
AT="$PWD/$BIN/gmb-atomic"
if ! have_opencl; then
    skip "$TAG atomic integration: no OpenCL device (install pocl-opencl-icd)"
else
    expect "gmb-atomic --help" 0 "$AT" --help &&
        check "atomic help explains the per-address time" grep -q \
            "ns_per_update_address = median kernel time / the adds one address received" "$T/out"
    expect "gmb list (atomic)" 0 "$G" list &&
        check "gmb list names atomic" grep -q "^atomic " "$T/out"

    # --- every scope x op x spacing over six contentions, each launch verified ---------------
    SH="1,4,64,256,1024,all"
    if expect "atomic: scopes, ops, spacings, contentions" 0 "$AT" "${FAST[@]}" --sharers "$SH" \
        --spacing 4,128 --out "$T/at"; then
        rec=$(ls "$T"/at/*-atomic.json)
        csv=$(ls "$T"/at/*-atomic.csv)
        np=$(json "$rec" "len(r['points'])")
        check "atomic: record validates" "$VALIDATE" "$SCHEMA" "$rec"
        check "atomic: record status ok, benchmark atomic" rec fields "$rec" status=ok \
            benchmark=atomic
        check "atomic: every scope x op x spacing measured" rec points-distinct "$rec" 8 \
            params.scope params.op params.spacing_bytes
        # the sharers of a curve: the asked ones capped to the grid (global) or the group
        # (shared), each once, all = the grid / the group (one counter: at the first spacing
        # only)
        check "atomic: sharers capped to the grid / group, no point twice" \
            rec atomic-sharers-capped "$rec" ${SH//,/ }
        check "atomic: one counter measured at the first spacing only" rec points-count "$rec" 2 \
            params.all=true params.op=red params.spacing_bytes=4
        check "atomic: one counter measured at no other spacing" rec points-count "$rec" 2 \
            params.all=true params.op=red
        check "atomic: all marks the grid's / group's one address" rec atomic-all-is-one-address \
            "$rec"
        check "atomic: a capped shared point says so" rec atomic-capped-said "$rec"
        check "atomic: counters per point (global ceil(items / sharers), shared per group)" \
            rec atomic-counters "$rec"
        check "atomic: every point verified after every launch, none failed" rec atomic-verified \
            "$rec"
        check "atomic: $np verified rows printed, each ending in its verdict" test \
            "$(grep -cE ' full$' "$T/out")" = "$np"
        check "atomic: the capped rows say so before the verdict" rec points-count "$rec" \
            "$(grep -cE ' \(capped\) full$' "$T/out")" extra.sharers_capped?=true
        check "atomic: iters, throughput, time per update and shared memory as the model says" \
            rec atomic-rates "$rec"
        check "atomic: contention summary per scope and op, ratio = distinct / one" \
            rec atomic-contention "$rec" global_atom global_red shared_atom shared_red
        check "atomic: the summary printed and recorded" grep -qF \
            "# atomic: $(json "$rec" "r['results']['summary']")" "$T/out"
        check "atomic: nothing skipped" rec fields "$rec" results.skipped=[]
        check "atomic: the default grid: groups of 256, 4 a compute unit (CPU), recorded" \
            rec atomic-grid "$rec" 256 4
        check "atomic: the default grid recorded as the defaults" rec fields "$rec" \
            options.group-size=0 options.groups-per-cu=0
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
        check "atomic: iters raised above 4 and verified" \
            rec atomic-iters-raised "$(ls "$T"/cal/*.json)" 4 global shared
    fi
    # --- --group-size and --groups-per-cu: both scopes' grid; shared sharers capped to 64 ---
    if expect "atomic: --group-size 64 --groups-per-cu 3" 0 "$AT" "${FAST[@]}" --group-size 64 \
        --groups-per-cu 3 --sharers 1,128,all --spacing 4,128 --out "$T/gs"; then
        rec=$(ls "$T"/gs/*-atomic.json)
        check "atomic --group-size 64: every scope x op measured, each launch verified" \
            rec atomic-combos-verified "$rec" 16
        check "atomic --group-size 64: every point's grid 3 x CUs groups of 64, recorded" \
            rec atomic-grid "$rec" 64 3
        check "atomic --group-size 64: shared sharers 1 and 64 (128 capped to the group)" \
            rec atomic-shared-capped "$rec" red \
            '[[1, false, null], [1, false, null], [64, true, "128 capped to the group size 64"]]'
        check "atomic --group-size 64: shared memory and counters follow the group size" \
            rec atomic-shared-group "$rec" 64
    fi

    # --- a grid not a multiple of the sharers: the last global counter has fewer work-items --
    # 3 groups a compute unit (2 CUs: 1536 work-items, counters of 1024 and 512); where the
    # compute units make that a multiple of 1024, a group size and groups a CU picked from
    # the first record that do not (and more than 1024 work-items: two counters at least)
    PART=(--groups-per-cu 3)
    part_run() { # name: every point of both ops at sharers 1024 and all on the grid of PART
        rm -rf "$T/part"
        expect "atomic: partial last counter ($1)" 0 "$AT" "${FAST[@]}" "${PART[@]}" \
            --scopes global --ops red,atom --sharers 1024,all --spacing 4,128 --out "$T/part"
    }
    if part_run "${PART[*]}"; then
        pick=$(json "$(ls "$T"/part/*.json)" "'' if r['points'][0]['params']['work_items'] % 1024
            else next('--group-size %d --groups-per-cu %d' % (l, q)
                      for l in (256, 128, 64, 32, 16, 8, 4, 2, 1) for q in range(3, 1024, 2)
                      if r['device']['compute_units'] * q * l > 1024
                      and r['device']['compute_units'] * q * l % 1024)")
        if [ -n "$pick" ]; then
            read -ra PART <<<"$pick"
            part_run "${PART[*]}, picked: --groups-per-cu 3 makes a multiple of 1024"
        fi
    fi
    if [ -n "$(ls "$T"/part/*.json 2>/dev/null)" ]; then
        rec=$(ls "$T"/part/*.json)
        check "atomic partial: the grid (groups x group size, recorded) not a multiple of 1024" \
            rec atomic-partial-grid "$rec"
        check "atomic partial: every point verified, sharers 1024 on ceil(items / 1024) counters" \
            rec atomic-partial-counters "$rec" '[["atom", 4, false], ["atom", 4, true],
                ["atom", 128, false], ["red", 4, false], ["red", 4, true], ["red", 128, false]]'
        # the planted errors on such a grid; --inject-error-last puts them in the partial
        # counter (its value, then (atom) its work-items' checksums, then the word before it),
        # on a grid of three counters at least, where it is not the middle one --inject-error
        # takes
        expect "atomic partial: planted error exits 1" 1 "$AT" "${FAST[@]}" "${PART[@]}" \
            --scopes global --ops red,atom --sharers 1024,all --inject-error --no-record
        read -ra INJ <<<"$(json "$rec" "next('--group-size %d --groups-per-cu %d' % (l, q)
            for l in (256, 128, 64, 32, 16, 8, 4, 2, 1) for q in range(3, 1024, 2)
            if r['device']['compute_units'] * q * l > 2048
            and r['device']['compute_units'] * q * l % 1024)")"
        for op in red atom; do
            if expect "atomic partial: planted error in the last counter ($op, ${INJ[*]}) exits 1" \
                1 "$AT" "${FAST[@]}" "${INJ[@]}" --scopes global --ops "$op" --sharers 1024 \
                --spacing 128 --inject-error --inject-error-last --out "$T/injlast-$op"; then
                r="$(ls "$T"/injlast-$op/*.json)"
                # T = (items mod 1024) x iters adds: the counter holds T, its old values sum
                # to T(T-1)/2 mod 2^32 (the planted errors are one off each)
                check "atomic partial: planted errors in the last counter ($op) caught, with its \
sums" rec atomic-last-counter-failures "$r" 1024
            fi
        done
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
            if expect "atomic: planted error ($sc $op) exits 1" 1 "$AT" "${FAST[@]}" \
                --scopes "$sc" --ops "$op" --sharers 4 --spacing 128 --inject-error \
                --out "$T/inj-$sc-$op"; then
                check "atomic: planted error ($sc $op) reported" grep -q \
                    "verification failed: $sc $op, spacing 128 B, sharers 4: launch 1: counter" \
                    "$T/err"
                r="$(ls "$T"/inj-$sc-$op/*.json)"
                check "atomic: planted error ($sc $op): record marked" rec fields "$r" \
                    status=verification_failed points.0.extra.verified=FAILED
                case $sc-$op in # global: then a word between counters
                global-red) at_caught=(counter word) ;;
                global-atom) at_caught=(counter the word) ;;
                shared-red) at_caught=(counter) ;;
                *) at_caught=(counter the) ;;
                esac
                check "atomic: planted error ($sc $op): $what caught" \
                    rec atomic-failures "$r" "${at_caught[@]}"
            fi
        done
    done

    # --- bad input: one line on stderr, exit 2, nothing written ----------------------------
    # at_bad NAME ARGS...
    at_bad() { bad_input atomic "$1" "$T/atbad" "$AT" "${FAST[@]}" --out "$T/atbad" "${@:2}"; }
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
    at_bad "--group-size 3 (not a power of two)" --group-size 3
    at_bad "--group-size 2048" --group-size 2048
    at_bad "--groups-per-cu 0x" --groups-per-cu 0x
    at_bad "--groups-per-cu -1" --groups-per-cu -1
    at_bad "--inject-error-last without --inject-error" --inject-error-last
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
        --out "$T/atdrv" &&
        check "gmb run atomic recorded" test -n "$(ls "$T"/atdrv/*-atomic.json)"
fi
