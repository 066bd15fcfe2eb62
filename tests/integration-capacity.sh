# integration-capacity.sh - gmb-capacity end to end on OpenCL/PoCL under a small --limit: every
# part (largest, total, alloc, frag, exhaust) verified and recorded, the bisection consistent
# with its answer (also where a test aid refuses what would hold past a size), the default
# --limit of a CPU, planted errors, bad input, Ctrl-C (everything freed), CUDA without a GPU,
# gmb run, gmb table and the figures. CPU numbers are never asserted.
CAP="$PWD/$BIN/gmb-capacity"
CF=(--backend opencl --warmup 0 --min-samples 2 --max-samples 3 --time-cap 0.05 --quiet)
MIB=1048576
LIM=(--limit 64MiB --chunk 8MiB --frag-blocks 8)
if ! have_opencl; then
    skip "$TAG capacity integration: no OpenCL device (install pocl-opencl-icd)"
else
    expect "gmb-capacity --help" 0 "$CAP" --help &&
        check "capacity help says what --limit holds" grep -q \
            "^--limit is the most the parts hold at once, on every path" "$T/out"
    expect "gmb list (capacity)" 0 "$G" list &&
        check "gmb list names capacity" grep -q "^capacity " "$T/out"

    # --- every part under 64 MiB -------------------------------------------------------------
    SZ=4096,16384,65536,262144,1048576,4194304,16777216
    if expect "capacity: every part, --limit 64MiB" 0 "$CAP" "${CF[@]}" "${LIM[@]}" --parts all \
        --sizes 4KiB:16MiB:x4 --out "$T/cap"; then
        rec=$(ls "$T"/cap/*-capacity.json)
        csv=$(ls "$T"/cap/*-capacity.csv)
        np=$(json "$rec" "len(r['points'])")
        check "capacity: record validates" "$VALIDATE" "$SCHEMA" "$rec"
        check "capacity: status ok, --limit 64 MiB as given" rec fields "$rec" status=ok \
            benchmark=capacity results.limit.bytes=$((64 * MIB)) results.limit.from=--limit \
            options.limit=$((64 * MIB))
        check "capacity: a point each for largest, total, frag and exhaust" bash -c \
            "for p in largest total frag exhaust; do
                 /usr/bin/python3 tests/records.py points-count '$rec' 1 params.part=\$p || exit 1
             done"
        check "capacity: largest: probes consistent with the answer" \
            rec capacity-bisection "$rec" largest
        check "capacity: largest is --limit, said to be capped by it" rec fields "$rec" \
            results.largest.bytes=$((64 * MIB)) results.largest.capped=true \
            results.largest.bound_by=--limit
        check "capacity: largest's point: its size, untouched (its probe verified it)" \
            rec points-count "$rec" 1 params.part=largest params.size_bytes=$((64 * MIB)) \
            extra.verified=full
        check "capacity: total: 8 chunks of 8 MiB up to --limit" rec fields "$rec" \
            results.total.bytes=$((64 * MIB)) results.total.chunks=8 \
            results.total.stopped_by=--limit results.total.error=null
        # managed memory where the device has shared virtual memory, else skipped, said why
        mng=$(json "$rec" "',managed' if r['device']['managed_memory'] else ''")
        check "capacity: alloc: a verified point per allocator and size" \
            rec capacity-alloc-points "$rec" "device,pinned$mng" "$SZ"
        check "capacity: alloc: async skipped on OpenCL, said why" rec items-count "$rec" \
            results.skipped 1 allocator=async "reason~=CUDA's stream-ordered allocator"
        check "capacity: frag: blocks, holes, bound and ratio" rec capacity-frag "$rec"
        check "capacity: frag: both searches consistent" bash -c \
            "/usr/bin/python3 tests/records.py capacity-bisection '$rec' frag-contiguous &&
             /usr/bin/python3 tests/records.py capacity-bisection '$rec' frag"
        check "capacity: exhaust: the backend's refusal recorded, usable after" \
            rec capacity-exhaust "$rec" "the refusal probe" --limit
        check "capacity: exhaust: OpenCL's own words (a CL_ error name)" \
            rec text-contains "$rec" results.exhaust.error "CL_"
        check "capacity: everything freed, never past --limit" rec capacity-held-clean "$rec"
        check "capacity: memory before and after (backend, NVML) or why not" \
            rec capacity-mem-said "$rec"
        check "capacity: no NVML here, said so" \
            rec text-contains "$rec" results.mem_before.nvml.why "NVML not available"
        check "capacity: the headline figures, the capped ones said so" rec figure-labels "$rec" \
            "Largest single allocation (at least: capped by --limit)" \
            "Total allocatable (chunks) (at least: capped by --limit)" \
            "Device memory allocation time, 16 MiB" \
            "Fragmentation ratio (largest with every other block freed / contiguous) (at least: \
capped by --limit)"
        check "capacity: a probe row printed per probe" test "$(grep -c '^probe ' "$T/out")" = \
            "$(json "$rec" "len(r['results']['probes'])")"
        check "capacity: the summary printed and recorded" grep -qF \
            "# capacity: $(json "$rec" "r['results']['summary']")" "$T/out"
        check "capacity csv: header + a row per point" test "$(wc -l <"$csv")" = $((np + 1))
        check "capacity csv header carries params and metrics" \
            grep -q "^part,allocator,size_bytes,blocks,alloc_us," "$csv"
        if command -v gnuplot >/dev/null; then
            expect "capacity: figures" 0 "$G" plot "$T/cap" --out "$T/capfig" &&
                check "capacity: alloc-time and probe figures" test \
                    -s "$T/capfig/capacity-alloc.png" -a -s "$T/capfig/capacity-probes.png"
        fi
        expect "capacity: gmb table" 0 "$G" table "$rec" &&
            check "capacity: gmb table shows its four headline rows" test "$(grep -cE \
                '^\| (Largest single|Total allocatable|Device memory allocation|Fragmentation)' \
                "$T/out")" = 4
    fi

    # --- a device that gives 20 MiB (test aid): the bisection searches, a chunk is refused ---
    if expect "capacity: --refuse-above 20MiB" 0 "$CAP" "${CF[@]}" "${LIM[@]}" \
        --parts largest,total,frag,exhaust --refuse-above 20MiB --out "$T/ref"; then
        rec=$(ls "$T"/ref/*-capacity.json)
        check "capacity --refuse-above: the test aid says so" grep -q \
            "warning: test aid --refuse-above 20 MiB" "$T/err"
        check "capacity --refuse-above: record validates" "$VALIDATE" "$SCHEMA" "$rec"
        for s in largest frag-contiguous; do
            check "capacity --refuse-above: $s: probes consistent with the answer" \
                rec capacity-bisection "$rec" "$s"
            check "capacity --refuse-above: $s: found within its resolution below 20 MiB" \
                rec capacity-refused-above "$rec" "$s" $((20 * MIB))
        done
        check "capacity --refuse-above: largest searched (5 probes or more), not capped" \
            rec fields "$rec" results.largest.capped=false results.probes.4.search=largest
        check "capacity --refuse-above: the figure is no lower bound" rec figure-unit "$rec" GiB \
            "Largest single allocation"
        check "capacity --refuse-above: total: 2 chunks, then refused" rec fields "$rec" \
            results.total.chunks=2 results.total.stopped_by=refused \
            "results.total.error~=test aid --refuse-above"
        check "capacity --refuse-above: frag: 2 of 8 blocks, no ratio" rec fields "$rec" \
            results.frag.allocated=2 results.frag.ratio=null "results.frag.refused~=test aid"
        check "capacity --refuse-above: exhaust: a chunk refused, usable after" \
            rec capacity-exhaust "$rec" "a chunk" refused
        check "capacity --refuse-above: everything freed" rec capacity-held-clean "$rec"
    fi

    # --- the default --limit of a CPU device: a quarter of the host's memory ------------------
    want=$(($(getconf _PHYS_PAGES) * $(getconf PAGE_SIZE) / 4 / 4096 * 4096))
    if expect "capacity: the default --limit" 0 "$CAP" "${CF[@]}" --parts alloc \
        --allocators device --sizes 4KiB --out "$T/deflim"; then
        rec=$(ls "$T"/deflim/*-capacity.json)
        check "capacity: default --limit a quarter of the host's memory, recorded" \
            rec fields "$rec" results.limit.bytes=$want options.limit=$want \
            "results.limit.from~=a quarter of the host's memory"
    fi
    # sizes above --limit (or, pinned, a quarter of the host's memory) are left out, said so
    if expect "capacity: sizes above --limit left out" 0 "$CAP" "${CF[@]}" --parts alloc \
        --allocators device,pinned --limit 1MiB --sizes 4KiB,2MiB --out "$T/left"; then
        rec=$(ls "$T"/left/*-capacity.json)
        check "capacity: 2 MiB left out of both allocators" rec items-set "$rec" \
            results.alloc.left_out allocator '["device", "pinned"]' size_bytes=$((2 * MIB))
        check "capacity: left out as above --limit" \
            rec items-count "$rec" results.alloc.left_out 2 "reason=above --limit"
        check "capacity: the rows say so" test "$(grep -c 'left out: above --limit' "$T/out")" = 2
        check "capacity: 4 KiB measured for both" \
            rec capacity-alloc-points "$rec" device,pinned 4096
    fi

    # --- a planted wrong word (--inject-error) fails each part, exit 1 ------------------------
    PL=(--limit 16MiB --chunk 4MiB --frag-blocks 4 --sizes 4KiB,64KiB)
    for case in "largest:largest probe 1" "total:total chunk 1" "alloc device:alloc device 4 KiB" \
        "alloc pinned:alloc pinned 4 KiB" "frag:frag-contiguous probe 1" \
        "exhaust:exhaust chunk 1"; do
        what=${case%%:*}
        part=${what% *}
        al=()
        [ "$part" = alloc ] && al=(--allocators "${what#* }")
        if expect "capacity: planted error ($what) exits 1" 1 "$CAP" "${CF[@]}" "${PL[@]}" \
            --parts "$part" "${al[@]}" --inject-error --out "$T/inj-${what// /-}"; then
            check "capacity: planted error ($what) reported" grep -q \
                "verification failed: ${case#*:}.*1 of [0-9]* words differ" "$T/err"
            r=$(ls "$T"/inj-"${what// /-}"/*.json)
            check "capacity: planted error ($what): record marked, the failure kept" \
                rec fields "$r" status=verification_failed "results.failures.0.what~=${case#*:}"
            check "capacity: planted error ($what): everything freed" rec capacity-held-clean "$r"
        fi
    done
    r=$(ls "$T"/inj-largest/*.json 2>/dev/null)
    [ -n "$r" ] && check "capacity: a probe that failed verification does not count" \
        rec fields "$r" results.probes.0.ok=false results.probes.0.error="verification failed"

    # --- Ctrl-C during the chunks: exit 130, everything freed, the finished point kept --------
    "$CAP" "${CF[@]}" --parts largest,total --limit 256MiB --chunk 4KiB --out "$T/int" \
        >"$T/int.out" 2>"$T/int.err" &
    pid=$!
    for _ in $(seq 600); do
        grep -q "^largest " "$T/int.out" && break
        sleep 0.1
    done
    sleep 0.5
    kill -INT "$pid"
    wait "$pid"
    rc=$?
    check "capacity SIGINT: exit 130 (got $rc)" test "$rc" = 130
    rec=$(ls "$T"/int/*-capacity.json 2>/dev/null)
    check "capacity SIGINT: the record says interrupted by SIGINT, largest's point kept" \
        rec fields "$rec" status=interrupted interrupted_by=SIGINT points.0.params.part=largest
    check "capacity SIGINT: every chunk freed on the way out" rec capacity-held-clean "$rec"
    check "capacity SIGINT: it says so on its last line" grep -q \
        "interrupted by Interrupt: 1 finished point kept in the record" "$T/int.err"

    # --- bad input: one line on stderr, exit 2, nothing written -----------------------------
    cap_bad() { bad_input capacity "$1" "$T/capbad" "$CAP" "${CF[@]}" --out "$T/capbad" "${@:2}"; }
    cap_bad "--limit 0" --limit 0
    cap_bad "--limit x" --limit x
    cap_bad "--limit 1 (below 4 KiB)" --limit 1
    cap_bad "--limit above the host's memory" --limit 64TiB
    cap_bad "--sizes 2 (below a word)" --sizes 2
    cap_bad "--sizes 4KiB:x" --sizes 4KiB:x
    cap_bad "--chunk 0" --chunk 0
    if [ "$(($(getconf _PHYS_PAGES) * $(getconf PAGE_SIZE) >> 30))" -ge 8 ]; then
        cap_bad "--chunk 4KiB: over 2^20 chunks" --parts total --limit 8GiB --chunk 4KiB &&
            check "capacity bad input: --chunk 4KiB: says why" \
                grep -q "more than 1048576 chunks of --limit 8 GiB" "$T/err"
    fi
    cap_bad "--parts foo" --parts foo
    cap_bad "--allocators foo" --allocators foo
    cap_bad "--resolution 0" --resolution 0
    cap_bad "--frag-blocks 1" --frag-blocks 1
    cap_bad "--exhaust-time-cap 0" --exhaust-time-cap 0
    cap_bad "unknown option" --frobnicate
    cap_bad "--device 99" --device 99

    # --- every allocator asked for skipped: a skip (77), not a success ------------------------
    expect "capacity: only async on OpenCL is skipped" 77 "$CAP" "${CF[@]}" --parts alloc \
        --allocators async --limit 16MiB --out "$T/caponly" &&
        check "capacity: the skip names its reason" grep -q "CUDA's stream-ordered" "$T/err"

    # --- CUDA without a GPU: skipped with the reason ---------------------------------------
    if expect "capacity --backend cuda without a GPU exits 77" 77 "$CAP" --backend cuda \
        --out "$T/capcuda"; then
        check "capacity cuda skip says why" grep -qE "no CUDA device|no NVIDIA driver|not built" \
            "$T/err"
        check "capacity cuda skip writes nothing" test ! -e "$T/capcuda"
    fi

    # --- the driver runs it ----------------------------------------------------------------
    expect "gmb run capacity" 0 "$G" run capacity "${CF[@]}" --limit 16MiB --sizes 4KiB \
        --out "$T/capdrv" &&
        check "gmb run capacity recorded" test -n "$(ls "$T"/capdrv/*-capacity.json)"
fi
