# integration-copy.sh - gmb-copy end to end on OpenCL/PoCL: every direction x host memory kind
# x engine PoCL supports verified and recorded, p2p skipped with its reason on one device,
# sampled verification, planted errors, bad input, a failing large allocation, CUDA without a GPU.
C="$PWD/$BIN/gmb-copy"
if ! have_opencl; then
    skip "$TAG integration copy: no OpenCL device (install pocl-opencl-icd)"
else
    expect "gmb-copy --help" 0 "$C" --help && check "help names the engines" \
        grep -q "sm = a float4 copy kernel" "$T/out"
    expect "gmb list names copy" 0 "$G" list &&
        check "gmb list has copy" grep -q "^copy " "$T/out"

    # --- every direction x kind x engine, small sizes, verified, recorded --------------------
    # h2d, d2h, bidir: ce x 3 kinds + sm x mapped = 4 series each; d2d: ce, sm; 3 sizes each
    if expect "copy all directions x kinds x engines" 0 "$C" "${FAST[@]}" \
        --sizes 4KiB:256KiB:x8 --out "$T/all"; then
        rec=$(ls "$T"/all/*-copy.json)
        csv=$(ls "$T"/all/*-copy.csv)
        check "copy table has 42 verified rows" \
            test "$(grep -cE ' (full|sampled) *$' "$T/out")" = 42
        check "copy: no FAILED row" bash -c "! grep -q FAILED '$T/out'"
        check "copy: the summary, its pinned copies at 256 KiB and the 4 KiB copy's time" \
            grep -qE '^# copy: host to device [0-9.]+ GB/s at 256 KiB, device to host [0-9.]+ '\
'GB/s at 256 KiB, both at once [0-9.]+ GB/s at 256 KiB, device to device [0-9.]+ GB/s at '\
'256 KiB \(copy engine, the largest copy; host memory pinned, near the device by default\); '\
'a 4 KiB pinned host-to-device copy takes [0-9.]+ us\.$' "$T/out"
        check "copy: the summary recorded as printed" grep -qxF \
            "# copy: $(json "$rec" "r['results']['summary']")" "$T/out"
        check "copy record validates against its schema" "$VALIDATE" "$SCHEMA" "$rec"
        check "copy record: 42 points, all verified in full" rec points-count "$rec" 42 \
            extra.verified=full
        check "copy record: every series present" rec points-set "$rec" \
            params.direction,params.kind,params.engine \
            '[["bidir", "mapped", "ce"], ["bidir", "mapped", "sm"], ["bidir", "pageable", "ce"],
              ["bidir", "pinned", "ce"], ["d2d", "device", "ce"], ["d2d", "device", "sm"],
              ["d2h", "mapped", "ce"], ["d2h", "mapped", "sm"], ["d2h", "pageable", "ce"],
              ["d2h", "pinned", "ce"], ["h2d", "mapped", "ce"], ["h2d", "mapped", "sm"],
              ["h2d", "pageable", "ce"], ["h2d", "pinned", "ce"]]'
        for m in h2d_bw_GBps d2h_bw_GBps; do
            check "copy record: copy-engine bidir points carry $m" rec points-count "$rec" 0 \
                params.direction=bidir params.engine=ce "metrics.$m?=false"
        done
        check "copy record: copy-engine bidir points run two streams" rec points-count "$rec" 0 \
            params.direction=bidir params.engine=ce params.streams!=2
        # SM bidir by default: nvbandwidth's split-warp copy, one kernel, its figure half the sum
        check "copy record: SM bidir is one split kernel, per direction half the sum" \
            rec copy-sm-bidir-split "$rec" 3
        check "copy record: every copy kernel a work-item per element (split bidir too)" \
            rec copy-sm-one-pass "$rec"
        check "copy record: SM copies in every direction" rec points-set "$rec" params.direction \
            '["bidir", "d2d", "d2h", "h2d"]' params.engine=sm
        check "copy record: bandwidth positive" rec points-positive "$rec" metrics.bw_GBps.median
        check "copy record: latency positive" rec points-positive "$rec" metrics.lat_us.median
        check "copy record: p2p skipped with a reason on one device" rec items-set "$rec" \
            results.skipped engine '["ce", "sm"]' direction=p2p "reason~=needs two"
        check "copy record: no p2p point (never a fake number)" rec points-count "$rec" 0 \
            "params.direction~=p2p"
        for k in pageable pinned; do
            check "copy record: SM with $k memory skipped with a reason" rec items-count "$rec" \
                results.skipped 3 engine=sm kind="$k" "reason~=mapping"
        done
        check "copy record: link unknown on a CPU, with the reason" rec fields "$rec" \
            results.link.available=false
        check "copy record: the link's reason names NVIDIA" rec text-contains "$rec" \
            results.link.why NVIDIA
        check "copy: no % of link without a link" rec points-count "$rec" 0 \
            metrics.pct_link?=true
        check "copy: table says the link is unknown" grep -q "^# PCIe link: unknown" "$T/out"
        # the figure of a record with peer series (kind peerN: a dash per peer), made from
        # this record's d2d points (gnuplot must take the peer names)
        if command -v gnuplot >/dev/null; then
            mkdir -p "$T/peerfig"
            /usr/bin/python3 - "$rec" "$T/peerfig/x-copy.json" <<'PY'
import copy, json, sys
r = json.load(open(sys.argv[1]))
pts = []
for p in r["points"]:
    if p["params"]["direction"] == "d2d" and p["params"]["engine"] == "ce":
        for peer in (1, 2, 7):
            for d in ("p2p", "p2p_rev"):
                q = copy.deepcopy(p)
                q["params"]["direction"], q["params"]["kind"] = d, f"peer{peer}"
                pts.append(q)
r["points"] = pts
json.dump(r, open(sys.argv[2], "w"))
PY
            expect "copy: figure of peer series" 0 "$G" plot "$T/peerfig" --out "$T/peerfig/out" &&
                check "copy: peer figure drawn" test -s "$T/peerfig/out/copy-bw.png"
        fi
        check "copy record: largest pinned h2d at the largest size, latency at the smallest" \
            rec fields "$rec" results.largest.h2d_pinned_ce.size_bytes=262144 \
            results.latency_us.d2h_pinned_ce.size_bytes=4096
        check "copy record has locality" rec fields "$rec" locality.source?=true \
            'locality.source!=""'
        check "copy record: every host point says what was bound and where its pages are" \
            rec copy-host-placed "$rec"
        check "copy record: default placement carries no host_node (points keep their identity)" \
            rec points-count "$rec" 0 params.host_node?=true
        check "copy record: host placement per kind" rec keys "$rec" results.host_placement \
            mapped pageable pinned
        check "copy csv: header + 42 rows" test "$(wc -l <"$csv")" = 43
        check "copy csv: bidir's own rates have columns" grep -q "h2d_bw_GBps,.*d2h_bw_GBps" \
            "$csv"
        check "copy csv header" grep -q "^direction,kind,engine,size_bytes,.*bw_GBps" "$csv"
    fi

    # --- host placement (hwloc): near by default, named nodes, every node -------------------
    if ! cpus_ours any node0; then
        skip "$TAG copy --host-nodes 0 (none of NUMA node 0's CPUs is ours)"
    elif expect "copy --host-nodes 0" 0 "$C" "${FAST[@]}" --sizes 64KiB --directions h2d,d2h \
        --kinds pinned,pageable --engines ce --host-nodes 0 --out "$T/node0"; then
        rec=$(ls "$T"/node0/*-copy.json)
        check "copy --host-nodes 0: every point labelled node 0" rec points-set "$rec" \
            params.host_node '["0"]'
        check "copy --host-nodes 0: bound to node 0, pages there or unknown" \
            rec copy-host-bound "$rec" 0
        check "copy --host-nodes 0: results keyed by node" rec keys "$rec" results.largest \
            d2h_pageable_ce_node0 d2h_pinned_ce_node0 h2d_pageable_ce_node0 h2d_pinned_ce_node0
        check "copy --host-nodes 0: table column shows the node" grep -q "^h2d *pinned@0 " \
            "$T/out"
    fi
    # a stored topology of two nodes, one CPU each, taken as this machine's (GMB_TEST_TOPOLOGY,
    # gmb only): the CPU device is near every node (default: unbound), node 0 binds, node 1's
    # memory (no such node here) is refused by the OS and skipped with its reason
    TOPO=tests/fixtures/topo-2numa-2cpu.xml
    if [ "$(numa_nodes)" != 1 ] || ! cpus_ours 0-1; then
        skip "$TAG copy --host-nodes all on a stored two-node topology (needs one real node and \
CPUs 0-1)"
    elif expect "copy --host-nodes all on two nodes" 0 env GMB_TEST_TOPOLOGY="$TOPO" "$C" \
        "${FAST[@]}" --sizes 64KiB --directions h2d,d2h --kinds pinned --engines ce \
        --host-nodes all --out "$T/numa"; then
        rec=$(ls "$T"/numa/*-copy.json)
        check "copy numa: default unbound on a CPU device, with the reason" rec fields "$rec" \
            "results.host_placement.pinned.binding=not bound: a CPU device's memory is every \
NUMA node"
        check "copy numa: default then node 0" rec copy-host-nodes "$rec" - - 0 0
        check "copy numa: node 1 skipped with the OS's reason" \
            rec copy-skipped-kinds "$rec" failed "node 1"
        check "copy numa: slowest other node against the default" \
            rec copy-numa-slowest "$rec" 0
        expect "copy numa: table" 0 "$G" table "$T/numa" &&
            check "copy numa: table rows of the slowest node and of the placement" bash -c \
                "grep -q 'Host to device, pinned, slowest other node vs default' '$T/out' &&
                 grep -qE '^\| Host memory of the copies \(pinned\) \|  \| \
not bound(, pages NUMA 0)? \|' '$T/out'"
        if command -v gnuplot >/dev/null; then
            expect "copy numa: figure" 0 "$G" plot "$T/numa" --out "$T/numafig" &&
                check "copy numa: a line of its own per node, named" \
                    grep -q "h2d pinned ce (NUMA 0)" "$T/numafig/copy-bw.svg"
        fi
    fi

    # --- large copies: sampled verification of host and device destinations -----------------
    if expect "copy 48 MiB h2d,d2h pinned (sampled verification)" 0 "$C" "${FAST[@]}" \
        --sizes 48MiB --directions h2d,d2h --kinds pinned --engines ce --out "$T/big"; then
        check "large copies verified by sampling" rec points-list "$(ls "$T"/big/*.json)" \
            extra.verified '["sampled", "sampled"]'
    fi

    # --- a planted wrong element must fail verification --------------------------------------
    for spec in "h2d pageable ce" "d2h pinned ce" "h2d mapped sm" "d2d device sm" \
        "bidir pinned ce" "bidir mapped sm"; do
        set -- $spec
        kinds=$2
        [ "$2" = device ] && kinds=pinned
        expect "copy planted error in $spec exits 1" 1 "$C" "${FAST[@]}" --sizes 64KiB \
            --directions "$1" --kinds "$kinds" --engines "$3" --inject-error --out "$T/inj" &&
            check "copy planted error in $spec is reported" \
                grep -q "verification failed: $1 $2 $3" "$T/err"
    done
    check "copy: a failed run keeps its record, marked" rec fields \
        "$(ls "$T"/inj/*.json | head -1)" status=verification_failed

    # --- the copy kernel on the resident grid (--sm-grid resident): verified, its grid ------
    if expect "copy --sm-grid resident" 0 "$C" "${FAST[@]}" --directions d2d --engines sm \
        --sizes 4KiB,1MiB --sm-grid resident --out "$T/resident"; then
        check "copy --sm-grid resident: verified, no more groups than a one-pass grid" \
            rec copy-resident-grid "$(ls "$T"/resident/*-copy.json)" 2
    fi

    # --- SM bidir on two streams (--sm-bidir streams): verified, both directions, half grids ---
    if expect "copy --sm-bidir streams" 0 "$C" "${FAST[@]}" --directions bidir --kinds mapped \
        --engines sm --sizes 256KiB --sm-bidir streams --out "$T/streams"; then
        check "copy --sm-bidir streams: two kernels, both rates, fewer groups than one pass" \
            rec copy-sm-bidir-streams "$(ls "$T"/streams/*-copy.json)" 1 64
    fi

    # --- bad input: one line on stderr, exit 2, nothing written -----------------------------
    # cbad NAME ARGS...
    cbad() { bad_input copy "$1" "$T/bad" "$C" "${FAST[@]}" --out "$T/bad" "${@:2}"; }
    cbad "--sm-bidir nope" --sm-bidir nope
    cbad "--sizes 0" --sizes 0
    cbad "--sizes 12Q" --sizes 12Q
    cbad "--sizes 1TiB" --sizes 1TiB
    cbad "--sizes 8 (under 16 bytes)" --sizes 8
    cbad "--directions nope" --directions nope
    cbad "--kinds nope" --kinds nope
    cbad "--sm-grid nope" --sm-grid nope
    cbad "--engines nope" --engines nope
    cbad "--device 99" --device 99
    cbad "unknown option" --frobnicate
    cbad "--peers garbage" --directions p2p --sizes 4KiB --peers x
    cbad "--peers 0 (the device itself)" --directions p2p --sizes 4KiB --peers 0
    cbad "--peers 7 (no such device)" --directions p2p --sizes 4KiB --peers 7
    cbad "--host-nodes garbage" --sizes 4KiB --host-nodes x
    cbad "--host-nodes 99 (no such node)" --sizes 4KiB --host-nodes 99
    cbad "--host-nodes empty item" --sizes 4KiB --host-nodes 0,,near
    cbad "--host-nodes -1" --sizes 4KiB --host-nodes -1

    # --- two PoCL devices: copies between them run (one context over both), verified ----------
    rm -rf "$T/p2"
    if expect "copy p2p --peers all with two devices" 0 env POCL_DEVICES="pthread pthread" \
        "$C" "${FAST[@]}" --directions p2p --sizes 4KiB,64KiB --peers all --out "$T/p2"; then
        rec2=$(ls "$T"/p2/*-copy.json)
        check "copy p2p: to peer 1 and back, verified, how it moved" \
            rec copy-peer-copies "$rec2" 1 2
        check "copy p2p: the SM engine skipped with the reason" \
            grep -q '^# skipped: p2p peer1 sm: a kernel reaches only memory on its own device' \
            "$T/out"
        check "copy p2p: the record validates against its schema" "$VALIDATE" "$SCHEMA" "$rec2"
    fi
    expect "copy p2p --peers 1 of device 0, a wrong result fails" 1 \
        env POCL_DEVICES="pthread pthread" "$C" "${FAST[@]}" --directions p2p --sizes 4KiB \
        --peers 1 --no-record --inject-error
    check "copy p2p: the wrong result named" grep -q "verification failed: p2p peer1 ce" "$T/err"
    # NVLink facts with the stand-in NVML (both devices given PCI bus ids it knows)
    STUB="$PWD/build/tests/stub/libnvidia-ml.so.1"
    if [ -f "$STUB" ] && expect "copy p2p with the stand-in NVML's NVLinks" 0 \
        env POCL_DEVICES="pthread pthread" GMB_NVML_LIB="$STUB" GMB_TEST_NVML_PCI=0000:01:00.0 \
        GMB_TEST_NVML_PEER_PCI=0000:02:00.0 "$C" "${FAST[@]}" --directions p2p --engines ce \
        --sizes 4KiB --peers 1 --out - ; then
        check "copy p2p: 6 links direct, 1 through NVSwitch, 175 GB/s, pct_link against it" \
            rec copy-peer-nvlink "$T/out" 6 1 175
        check "copy p2p: the peer's test aid said where it acts" \
            grep -q "test aid GMB_TEST_NVML_PEER_PCI: the PCI bus id of peer 1" "$T/err"
    fi
    expect "copy p2p --peers next of device 1 is device 0" 0 env POCL_DEVICES="pthread pthread" \
        "$C" "${FAST[@]}" --device 1 --directions p2p --engines ce --sizes 4KiB --peers next \
        --no-record
    check "copy p2p: device 1's next peer is device 0" grep -q '^p2p_rev  *peer0  *ce' "$T/out"

    # --- pinned memory the host cannot give: a clear error, exit 3, nothing written ----------
    # (address space limited; ASan needs a large address space, so the normal build only)
    if [ "$TAG" = normal ]; then
        rm -rf "$T/huge"
        (ulimit -v 3500000 && "$C" "${FAST[@]}" --sizes 1GiB --directions h2d --kinds pinned \
            --engines ce --out "$T/huge") >"$T/out" 2>"$T/err"
        rc=$?
        check "copy pinned allocation failing exits 3 (got $rc)" test "$rc" = 3
        check "copy pinned allocation failing says so" \
            grep -q "cannot allocate 2 x 1 GiB of pinned host memory" "$T/err"
        check "copy pinned allocation failing writes nothing" test ! -e "$T/huge"
    fi

    # --- CUDA without a GPU: skipped with the reason ----------------------------------------
    if expect "copy --backend cuda without a GPU exits 77" 77 "$C" --backend cuda --sizes 4KiB \
        --out "$T/cuda"; then
        check "copy cuda skip says why" grep -qE "no CUDA device|not built" "$T/err"
        check "copy cuda skip writes nothing" test ! -e "$T/cuda"
    fi
fi
