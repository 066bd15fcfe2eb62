# integration-loaded.sh - gmb-loaded end to end on OpenCL/PoCL: every load level verified (the
# chase's final element, the streamers' sums) and recorded with its coverage, planted errors,
# bad input, the plot and the table rows, CUDA without a GPU. Correctness only: a CPU runs
# work-groups in turn, so no latency-under-load shape is asserted here.
LD="$PWD/$BIN/gmb-loaded"
LSMALL=(--size 1MiB --stream-size 1MiB --min-sample-us 300) # a CPU's group scheduling is noisy
if ! have_opencl; then
    skip "$TAG integration loaded: no OpenCL device (install pocl-opencl-icd)"
else
    expect "gmb-loaded --help" 0 "$LD" --help &&
        check "loaded help says how bandwidth is counted" \
            grep -q "bytes the streamers read / kernel time" "$T/out"
    expect "gmb list names loaded" 0 "$G" list &&
        check "gmb list has loaded" grep -q "^loaded " "$T/out"

    # --- the default levels: 0, powers of two and eighths of the most resident groups ---------
    if expect "loaded default levels" 0 "$LD" "${FAST[@]}" "${LSMALL[@]}" --out "$T/all"; then
        rec=$(ls "$T"/all/*-loaded.json)
        csv=$(ls "$T"/all/*-loaded.csv)
        check "loaded record validates against its schema" "$VALIDATE" "$SCHEMA" "$rec"
        check "loaded: no FAILED row" bash -c "! grep -q FAILED '$T/out'"
        gmax=$(json "$rec" "max(p['params']['load_groups'] for p in r['points'])")
        check "loaded: the most groups is every resident group but the chaser's (PoCL: CUs x 4 \
- 1)" rec loaded-most-groups "$rec" 4
        check "loaded levels: 0 to the most resident groups, each once, ascending; verified, \
bandwidth only with streamers, coverage within the groups, positive latencies" \
            rec loaded-curve "$rec" "$gmax"
        check "loaded record: cycles derived on OpenCL" rec text-contains "$rec" \
            metrics.lat_cycles.desc DERIVED
        check "loaded record: the summary and its figures" rec keys "$rec" results.loaded \
            bw_at_2x_idle_GBps groups_on_chaser_sm_max idle knee levels_partly_covered \
            max_bw_GBps most_groups summary
        check "loaded record: the most bandwidth, the knee (within 3%) and the most groups" \
            rec loaded-results "$rec"
        check "loaded prints its summary" grep -q "^# loaded: idle latency" "$T/out"
        check "loaded csv: a row per level with bandwidth and latency" rec points-count "$rec" \
            "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
                h["bw_GBps"] && h["lat_ns"] { n++ } END { print n }' "$csv")"
        if command -v gnuplot >/dev/null; then
            if expect "gmb plot of a loaded record" 0 "$G" plot "$T/all" --out "$T/fig"; then
                check "loaded figure: PNG and SVG" \
                    test -s "$T/fig/loaded-lat.png" -a -s "$T/fig/loaded-lat.svg"
                check "loaded figure: no share-of-peak figure without a nominal peak" \
                    test ! -e "$T/fig/loaded-lat-pct.png"
            fi
            # two cards with nominal peaks (the record with a peak set): the share-of-peak figure
            mkdir -p "$T/pk/a" "$T/pk/b"
            for c in a:20 b:5; do
                /usr/bin/python3 -c "import json,sys; r=json.load(open(sys.argv[1])); \
                    r['device']['peak_bw_GBps']=float(sys.argv[3]); \
                    r['device']['name']='card '+sys.argv[2]; json.dump(r, open(sys.argv[4], 'w'))" \
                    "$rec" "${c%%:*}" "${c#*:}" "$T/pk/${c%%:*}/x-loaded.json"
                cp "$csv" "$T/pk/${c%%:*}/x-loaded.csv"
            done
            if expect "gmb plot of two loaded records with peaks" 0 "$G" plot "$T/pk/a" \
                "$T/pk/b" --out "$T/pkfig"; then
                check "loaded figures with peaks: by GB/s and by share of the peak" \
                    test -s "$T/pkfig/loaded-lat.png" -a -s "$T/pkfig/loaded-lat-pct.png" \
                    -a -s "$T/pkfig/loaded-lat-pct.svg"
            fi
        fi
        if expect "gmb compare of a loaded record with itself" 0 "$G" compare "$rec" "$rec"; then
            check "compare: each load level is a point of its own (not a calibration parameter)" \
                rec points-count "$rec" "$(grep -c ' lat_ns ' "$T/out")"
            check "compare: the bandwidth is tested on each sample's own value" \
                bash -c "grep ' bw_GBps ' '$T/out' | grep -q 'not significant' &&
                    ! grep ' bw_GBps ' '$T/out' | grep -q 'no samples'"
        fi
        if expect "gmb table of a loaded record" 0 "$G" table "$rec"; then
            check "table: idle latency row" grep -q "^| Loaded: chase latency, idle" "$T/out"
            check "table: most bandwidth row" grep -q "^| Loaded: the most bandwidth" "$T/out"
            check "table: latency rows at the knee and with the most groups" test "$(grep -cE \
                "^\| Loaded: latency (at the knee|with the most)" "$T/out")" = 2
        fi
    fi

    # --- the kernels build without a warning (a fresh PoCL cache: it prints the compiler's);
    # not under ASan, where PoCL's own compiler leaks on that path ---------------------------
    if [ "$TAG" = normal ] && expect "loaded idle level, fresh kernel cache" 0 \
        env POCL_CACHE_DIR="$T/pocl-cache" "$LD" "${FAST[@]}" "${LSMALL[@]}" --groups 0 \
        --no-record; then
        check "loaded kernels build without a warning" bash -c "! grep -qi warning '$T/err'"
    fi

    # --- a list of levels, bigger groups -------------------------------------------------------
    if expect "loaded --groups 0,2,max" 0 "$LD" "${FAST[@]}" "${LSMALL[@]}" --groups max,0,2 \
        --group-size 64 --no-record; then
        check "loaded: three rows in ascending order" \
            test "$(awk '/^read +[0-9]+ / { printf "%s ", $2 }' "$T/out")" = "0 2 ${gmax:-7} "
    fi

    # --- write traffic: a second curve, the stores checked after each level --------------------
    if expect "loaded --traffic read,write" 0 "$LD" "${FAST[@]}" "${LSMALL[@]}" --groups 0,1,max \
        --traffic read,write --out "$T/rw"; then
        rw=$(ls "$T"/rw/*-loaded.json)
        check "loaded rw: a curve per traffic, the same levels" rec points-tuples "$rw" \
            params.traffic,params.load_groups "[[\"read\", 0], [\"read\", 1], \
[\"read\", ${gmax:-7}], [\"write\", 0], [\"write\", 1], [\"write\", ${gmax:-7}]]"
        check "loaded rw: the run's summary, the reads' then the writes'" \
            rec loaded-rw-summary "$rw"
        check "loaded rw: every point verified" rec points-count "$rw" 0 extra.verified!=full
        check "loaded rw: the write curve's most bandwidth, knee and most groups" \
            rec loaded-results "$rw" loaded_write
        check "loaded rw: writes print their own summary" \
            grep -q "^# loaded (writes): idle latency" "$T/out"
        if expect "gmb table of a read/write loaded record" 0 "$G" table "$rw"; then
            check "table: rows of the write curve" \
                grep -q "^| Loaded by writes: the most bandwidth" "$T/out"
        fi
        if command -v gnuplot >/dev/null; then
            expect "gmb plot of a read/write loaded record" 0 "$G" plot "$T/rw" --out "$T/rwfig" &&
                check "loaded rw figure" test -s "$T/rwfig/loaded-lat.png"
        fi
    fi
    expect "loaded planted torn store exits 1" 1 "$LD" "${FAST[@]}" "${LSMALL[@]}" --groups 1 \
        --traffic write --inject-error --no-record && check "loaded: the bad element is named" \
        grep -q "neither its data nor a streamer's store" "$T/err"

    # --- planted errors: a wrong sum, a wrong chase end -------------------------------------------
    expect "loaded planted wrong sum exits 1" 1 "$LD" "${FAST[@]}" "${LSMALL[@]}" --groups 1 \
        --inject-error --out "$T/inj" && check "loaded: the failed sum is named" \
        grep -q "verification failed: 1 streaming groups: streaming work-item" "$T/err"
    check "loaded: a failed run keeps its record, marked" rec fields \
        "$(ls "$T"/inj/*.json | head -1)" status=verification_failed
    # the idle chase alone (no streamers) has its own planted error: a wrong chase end
    expect "loaded --groups 0: planted wrong chase end exits 1" 1 "$LD" "${FAST[@]}" \
        "${LSMALL[@]}" --groups 0 --inject-error --out "$T/inj0" &&
        check "loaded --groups 0: the wrong end is named" \
            grep -q "the chase ended on word" "$T/err"
    check "loaded --groups 0: its record says verification_failed" rec fields \
        "$(ls "$T"/inj0/*.json | head -1)" status=verification_failed

    # --- bad input: one line on stderr, exit 2, nothing written -------------------------------
    # lbad NAME ARGS...
    lbad() { bad_input loaded "$1" "$T/bad" "$LD" "${FAST[@]}" --out "$T/bad" "${@:2}"; }
    lbad "--size 0" --size 0
    lbad "--size 12Q" --size 12Q
    lbad "--size 1TiB" --size 1TiB
    lbad "--size below two elements" --size 128
    lbad "--stride 6" --stride 6 "${LSMALL[@]}"
    lbad "--groups 100000 (more than stay resident)" --groups 100000 "${LSMALL[@]}"
    lbad "--groups -1" --groups -1 "${LSMALL[@]}"
    lbad "--groups x" --groups 1,x "${LSMALL[@]}"
    lbad "--groups empty" --groups , "${LSMALL[@]}"
    lbad "--stream-size below one element per streamer" --stream-size 64 --size 1MiB
    lbad "--group-size 2000" --group-size 2000
    lbad "--device 99" --device 99
    lbad "--traffic copy" --traffic copy "${LSMALL[@]}"
    lbad "unknown option" --frobnicate

    # --- CUDA without a GPU: skipped with the reason ----------------------------------------
    if expect "loaded --backend cuda without a GPU exits 77" 77 "$LD" --backend cuda \
        --out "$T/cuda"; then
        check "loaded cuda skip says why" grep -qE "no CUDA device|not built" "$T/err"
        check "loaded cuda skip writes nothing" test ! -e "$T/cuda"
    fi
fi
