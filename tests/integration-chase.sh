# integration-chase.sh - gmb-chase end to end on OpenCL/PoCL: every mode and space verified
# and recorded, latency that grows with the working set, levels with generic names on a CPU,
# a planted wrong final index, bad input, CUDA without a GPU.
C="$PWD/$BIN/gmb-chase"
# a chase sample is a launch less its baseline: on a shared 2-core CPU, 20 us samples can drown
# in launch noise, so chase samples last longer than the other programs' (still not a timing
# test)
FAST=("${FAST[@]}" --min-sample-us 300)
# with_images CMD...: CMD makes OpenCL images (the texture space): PoCL's own leak in
# clCreateImage is suppressed for it (tests/lsan-pocl-images.supp), nothing else changes
with_images() {
    local o=${LSAN_OPTIONS:-}
    LSAN_OPTIONS="${o//lsan.supp/lsan-pocl-images.supp}" "$@"
}
if ! have_opencl; then
    skip "$TAG chase integration: no OpenCL device (install pocl-opencl-icd)"
else
    expect "gmb list names chase" 0 "$G" list && check "gmb list names chase" \
        grep -q "^chase " "$T/out"
    expect "gmb-chase --help" 0 "$C" --help && check "chase help explains chains and cycles" \
        grep -q "one cycle through every element" "$T/out"

    # --- every mode and space, small sweep, verified, recorded -----------------------------
    # sizes 1,4,16,64,256 KiB: random and stride run 5 global + 5 shared (PoCL's local memory
    # is MiBs) + 4 constant (<= 64 KiB) + 5 atomic + 5 host points each; page 4 KiB: 4 points
    # (>= 1 page) in global, atomic and host memory, page 64 KiB: 2 in each; peer: no second
    # device; dsmem: no clusters. Texture has runs of its own below (PoCL leaks inside
    # clCreateImage, so the sanitizer's leak check is relaxed for those runs only)
    if expect "chase every mode and space but texture" 0 "$C" "${FAST[@]}" \
        --sizes 1KiB:256KiB:x4 --mode all --page-sizes 4KiB,64KiB --out "$T/all" \
        --spaces global,global-cg,shared,dsmem,constant,atomic,host,peer; then
        rec=$(ls "$T"/all/*-chase.json)
        check "chase: table has 66 verified rows" test "$(grep -cE ' full *$' "$T/out")" = 66
        check "chase: no FAILED row" bash -c "! grep -q FAILED '$T/out'"
        check "chase: record validates against its schema" "$VALIDATE" "$SCHEMA" "$rec"
        check "chase: record holds 66 verified points" rec points-count "$rec" 66 \
            extra.verified=full
        check "chase: every mode and space measured" rec points-set "$rec" \
            params.mode,params.space '[["page", "atomic"], ["page", "global"], ["page", "host"],
                ["random", "atomic"], ["random", "constant"], ["random", "global"],
                ["random", "host"], ["random", "shared"], ["stride", "atomic"],
                ["stride", "constant"], ["stride", "global"], ["stride", "host"],
                ["stride", "shared"]]'
        check "chase: global-cg skipped on OpenCL, in the table" \
            grep -qE "^random .* global-cg +skipped: OpenCL has no L1-bypassing load" "$T/out"
        check "chase: global-cg skipped on OpenCL, in the record with its reason" rec items-count \
            "$rec" results.skipped 4 space=global-cg "reason~=ld.global.cg"
        check "chase: dsmem skipped on OpenCL, with its reason" rec items-count "$rec" \
            results.skipped 2 space=dsmem "reason~=OpenCL has no thread-block clusters"
        check "chase: no point of global-cg" rec points-count "$rec" 0 params.space=global-cg
        check "chase: OpenCL cycles are marked derived" rec fields "$rec" \
            "results.cycles.source=derived from ns x max clock"
        check "chase: OpenCL cycles are said derived" rec text-contains "$rec" \
            metrics.lat_cycles.desc DERIVED
        check "chase: every point has latency in ns" rec points-positive "$rec" \
            metrics.lat_ns.median
        check "chase: levels of every curve in the record" rec items-count "$rec" \
            results.levels 16
        check "chase: peer skipped with its reason (one device, or OpenCL's lack of peer access)" \
            rec chase-peer-skips "$rec" 4
        check "chase: the summary is printed and recorded" grep -qF \
            "# levels: $(json "$rec" "r['results']['summary']")" "$T/out"
    fi

    # --- the latency staircase of a CPU: bigger working sets are slower --------------------
    if expect "chase 4 KiB and 64 MiB" 0 "$C" "${FAST[@]}" --sizes 4KiB,64MiB --mode random \
        --spaces global --min-sample-us 2000 --min-samples 5 --max-samples 9 --out "$T/big"; then
        rec=$(ls "$T"/big/*.json)
        check "chase: latency at 64 MiB is over twice that at 4 KiB" rec point-above "$rec" \
            metrics.lat_ns.median 1 0 2
    fi
    # the in-launch warm-up: a whole traversal of up to 4096 elements; 1024 loads for a set
    # whose lines outgrow the last-level cache (512 MiB here: more than the LLC PoCL reports
    # on most machines; the expectation follows the record's LLC either way)
    if expect "chase 4 KiB and 512 MiB" 0 "$C" "${FAST[@]}" --sizes 4KiB,512MiB --mode random \
        --spaces global --max-samples 3 --out "$T/warm"; then
        check "chase: warm-up loads by the set's size against the LLC, timed loads at least twice" \
            rec chase-warmup "$(ls "$T"/warm/*.json)" 128
        check "chase: both sizes measured" rec points-count "$(ls "$T"/warm/*.json)" 2
    fi
    if expect "chase dense sweep for levels" 0 "$C" "${FAST[@]}" --sizes 1KiB:8MiB:4/oct \
        --mode random --spaces global --out "$T/lev"; then
        rec=$(ls "$T"/lev/*.json)
        check "chase: 53 points in the dense sweep" rec points-count "$rec" 53
        check "chase: a verdict for the curve" rec chase-first-verdict "$rec"
        check "chase: no GPU structure claimed on a CPU" bash -c \
            "! grep -E '^# levels' '$T/out' | grep -qE 'L1|L2|DRAM|TLB|shared memory'"
        check "chase: level names are generic" rec chase-generic-names "$rec"
    fi

    # --- the table's TLB rows: GPU levels of the 2 MiB page-stride chase only (a CPU's are
    # generic: no row) --------------------------------------------------------------------
    if expect "chase page stride 2 MiB" 0 "$C" "${FAST[@]}" --mode page --page-sizes 2MiB \
        --spaces global --sizes 4MiB:512MiB:2/oct --out "$T/tlb"; then
        expect "chase page stride: table" 0 "$G" table "$T/tlb" &&
            check "chase page stride on a CPU: no TLB row" bash -c "! grep -q 'TLB level' '$T/out'"
        # a GPU's TLB rows, by the rule that a TLB level is one no cache ends:
        # tests/integration-chaselevels.sh
    fi

    # --- across a link: host memory mapped into the device (PoCL: the host's own memory, so
    # correctness and format only); the peer space needs a second device -------------------
    if expect "chase host memory" 0 "$C" "${FAST[@]}" --spaces host --mode random,page \
        --page-sizes 64KiB --sizes 16KiB:4MiB:x4 --out "$T/host"; then
        rec=$(ls "$T"/host/*-chase.json)
        check "chase host: 5 random points, verified" rec points-count "$rec" 5 \
            params.mode=random params.space=host extra.verified=full
        check "chase host: 4 page points, verified" rec points-count "$rec" 4 params.mode=page \
            params.space=host extra.verified=full
        check "chase host: no other point" rec points-count "$rec" 9
        check "chase host: record validates" "$VALIDATE" "$SCHEMA" "$rec"
        check "chase host: the summary names the space" grep -q "^# levels: host, random: " "$T/out"
        # the table's row reads the last level of the host curve when it is host memory (a
        # sweep past 4x the last-level cache: over 1 GiB on this VM, too slow here): renamed so
        mkdir -p "$T/hostmem"
        /usr/bin/python3 - "$rec" "$T/hostmem/x-chase.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r.pop("headlines", None)  # a record of before them: the extractors read the edits
for cv in r["results"]["levels"]:
    if cv["mode"] == "random":
        cv["verdict"] = "levels"
        cv["levels"] = [dict(cv["levels"][-1] if cv["levels"] else {}, name="host memory",
                             lat_ns=1234.5)]
json.dump(r, open(sys.argv[2], "w"))
PY
        expect "chase host memory: table" 0 "$G" table "$T/hostmem" &&
            check "chase host memory: the table's row" grep -q \
                '^| Host memory latency (mapped, from the device; index chase) | ns | 1234' "$T/out"
        # a curve that stops in the cache (4 MiB < 4x the last-level cache the device reports)
        if [ "$(json "$rec" "r['device']['llc_bytes'] > 2**20")" = True ]; then
            expect "chase host, in the cache only: table" 0 "$G" table "$T/host" &&
                check "chase host: no row for a curve that stops in a cache" bash -c \
                    "! grep -q '^| Host memory latency' '$T/out'"
        fi
    fi
    expect "chase host: planted wrong final element exits 1" 1 "$C" "${FAST[@]}" --spaces host \
        --mode random --sizes 16KiB --inject-error --out "$T/host-inj"
    if expect "chase peer alone, one device: skipped" 77 env POCL_DEVICES=pthread "$C" \
        "${FAST[@]}" --spaces peer --sizes 16KiB --out "$T/peer"; then
        # (another OpenCL platform's device makes two: then OpenCL's own reason)
        check "chase peer, one device: the reason" grep -qE \
            "needs a second opencl device|OpenCL has no peer access" "$T/err"
        check "chase peer, one device: nothing written" test ! -e "$T/peer"
    fi
    # two PoCL devices: the peer is opened, OpenCL refuses peer access, it is closed again
    for p in "" "--peer 1"; do
        if expect "chase peer, two devices ${p:-(the next)}: skipped" 77 \
            env POCL_DEVICES="pthread pthread" "$C" "${FAST[@]}" --spaces peer --sizes 16KiB $p \
            --out "$T/peer2"; then
            check "chase peer, two devices ${p:-(the next)}: OpenCL's reason" grep -q \
                "OpenCL has no peer access" "$T/err"
        fi
    done
    if expect "chase --pointers in host memory on OpenCL: skipped" 77 "$C" "${FAST[@]}" \
        --pointers --spaces host --mode random --sizes 16KiB --out "$T/hostptr"; then
        check "chase --pointers host: the reason" grep -q "host memory is a buffer object" "$T/err"
    fi

    # --- a planted wrong final index must fail verification --------------------------------
    for m in random stride page; do
        if expect "chase: planted error in $m exits 1" 1 "$C" "${FAST[@]}" --sizes 64KiB \
            --mode "$m" --page-sizes 4KiB --spaces global --inject-error --out "$T/inj-$m"; then
            check "chase: planted error in $m is reported" grep -q "verification failed: $m chain" \
                "$T/err"
            check "chase: planted error in $m: record marked" rec fields \
                "$(ls "$T"/inj-$m/*.json)" status=verification_failed \
                points.0.extra.verified=FAILED
        fi
    done
    expect "chase: planted error in shared exits 1" 1 "$C" "${FAST[@]}" --sizes 4KiB \
        --mode random --spaces shared --inject-error --out "$T/inj-sh"
    expect "chase: planted error in atomic exits 1" 1 "$C" "${FAST[@]}" --sizes 4KiB \
        --mode random --spaces atomic --inject-error --out "$T/inj-at"
    # atomics add zero: every launch after the first still follows the chain (its final
    # element is checked after each; adding anything else runs off the chain)
    expect "chase atomic, random then stride" 0 "$C" "${FAST[@]}" --sizes 4KiB,64KiB \
        --mode random,stride --spaces atomic --out "$T/atomic" &&
        check "chase atomic: 4 points, verified" rec points-count \
            "$(ls "$T"/atomic/*-chase.json)" 4 extra.verified=full
        check "chase atomic: no other point" rec points-count "$(ls "$T"/atomic/*-chase.json)" 0 \
            extra.verified!=full
    # the table's row: the atomic curve's L2 level (a GPU's name; renamed so here)
    mkdir -p "$T/atgpu"
    /usr/bin/python3 - "$(ls "$T"/atomic/*-chase.json)" "$T/atgpu/x-chase.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r.pop("headlines", None)  # a record of before them: the extractors read the edits
for cv in r["results"]["levels"]:
    cv["verdict"] = "levels"
    cv["levels"] = [dict(cv["levels"][0] if cv["levels"] else {}, name="L2", lat_ns=160.0,
                         lat_cycles=321.0)]
json.dump(r, open(sys.argv[2], "w"))
PY
    expect "chase atomic, GPU levels: table" 0 "$G" table "$T/atgpu" &&
        check "chase atomic, GPU levels: the L2 atomic rows" bash -c \
            "grep -q '^| L2 atomic latency (index chase) | cycles | 321' '$T/out' &&
             grep -q '^| L2 atomic latency (index chase) | ns | 160' '$T/out' &&
             ! grep -q '^| L2 latency' '$T/out'"
    # the texture path: the chain as a 1-D image (PoCL has images), verified like the others
    with_images expect "chase: planted error in texture exits 1" 1 "$C" "${FAST[@]}" --sizes 4KiB \
        --mode random --spaces texture --inject-error --out "$T/inj-tx"
    if with_images expect "chase texture, every mode" 0 "$C" "${FAST[@]}" --sizes 4KiB,64KiB,1MiB \
        --mode all --page-sizes 4KiB --spaces texture,global --out "$T/tex"; then
        rec=$(ls "$T"/tex/*-chase.json)
        check "chase texture: 9 texture points, verified" rec points-count "$rec" 9 \
            params.space=texture extra.verified=full
        check "chase texture: no other texture point" rec points-count "$rec" 9 \
            params.space=texture
        check "chase texture: its levels in the record" rec items-set "$rec" results.levels mode \
            '["page", "random", "stride"]' space=texture
        check "chase texture: a curve per mode" rec items-count "$rec" results.levels 3 \
            space=texture
        check "chase texture: the record validates" "$VALIDATE" "$SCHEMA" "$rec"
        check "chase texture: in the summary" grep -q "^# levels: .*texture, random: " "$T/out"
    fi
    # the table's rows: the texture curve's L1 and L2 levels (a GPU's names; renamed so here)
    mkdir -p "$T/txgpu"
    /usr/bin/python3 - "$(ls "$T"/tex/*-chase.json)" "$T/txgpu/x-chase.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r.pop("headlines", None)  # a record of before them: the extractors read the edits
for cv in r["results"]["levels"]:
    cv["verdict"] = "levels"
    if cv["space"] == "texture" and cv["mode"] == "random":
        cv["levels"] = [dict(name="L1", lat_ns=40.0, lat_cycles=70.0),
                        dict(name="L2", lat_ns=150.0, lat_cycles=290.0)]
    else:
        cv["levels"] = []
json.dump(r, open(sys.argv[2], "w"))
PY
    expect "chase texture, GPU levels: table" 0 "$G" table "$T/txgpu" &&
        check "chase texture, GPU levels: the texture rows, not the load path's" bash -c \
            "grep -q '^| Texture L1 latency (index chase) | cycles | 70' '$T/out' &&
             grep -q '^| Texture L1 latency (index chase) | ns | 40' '$T/out' &&
             grep -q '^| Texture L2 latency (index chase) | cycles | 290' '$T/out' &&
             ! grep -q '^| L1 latency' '$T/out'"
    # on-chip memories: shared memory's flat curve (no step, so no level) gives its median;
    # a curve with a step the detector did not call a level gives nothing; constant: level 1
    mkdir -p "$T/flat" "$T/step"
    for v in flat step; do
        /usr/bin/python3 - "$(ls "$T"/all/*-chase.json)" "$T/$v/x-chase.json" "$v" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r.pop("headlines", None)  # a record of before them: the extractors read the edits
for cv in r["results"]["levels"]:
    cv["levels"] = [dict(name="level 1", lat_ns=5.0, lat_cycles=9.0)] \
        if cv["space"] == "constant" and cv["mode"] == "random" else []
k = 0
for p in r["points"]:
    if p["params"]["space"] == "shared" and p["params"]["mode"] == "random":
        ns = 29.0 + k % 3 if sys.argv[3] == "flat" or k < 3 else 60.0 + k
        k += 1
        for m, f in (("lat_ns", 1.0), ("lat_cycles", 2.0)):
            p["metrics"][m].update(median=ns * f, ci_lo=ns * f - 0.5, ci_hi=ns * f + 0.5)
# another SM's shared memory (a CUDA GPU's dsmem curve): six times as far, flat too
r["points"] += [json.loads(json.dumps(p).replace('"shared"', '"dsmem"')) for p in r["points"]
                if p["params"]["space"] == "shared" and p["params"]["mode"] == "random"]
for p in r["points"]:
    if p["params"]["space"] == "dsmem":
        for m in ("lat_ns", "lat_cycles"):
            for k in ("median", "ci_lo", "ci_hi"):
                p["metrics"][m][k] *= 6
json.dump(r, open(sys.argv[2], "w"))
PY
    done
    expect "chase on-chip rows: table (flat shared curve)" 0 "$G" table "$T/flat" &&
        check "chase on-chip rows: the flat curve's median, constant's level 1" bash -c \
            "grep -q '^| Shared/local-memory latency (index chase) | ns | 30.00 \[29.50, 30.50\]' \
                 '$T/out' &&
             grep -q '^| Shared/local-memory latency (index chase) | cycles | 60.00' '$T/out' &&
             grep -q '^| Constant cache latency (level 1; index chase) | cycles | 9.000' '$T/out' &&
             grep -q \
                 '^| Distributed shared-memory latency (another SM of the cluster; index chase) \
| ns | 180.0' '$T/out'"
    expect "chase on-chip rows: table (a step)" 0 "$G" table "$T/step" &&
        check "chase on-chip rows: no shared row from a curve with a step" bash -c \
            "! grep -q '^| Shared/local-memory latency' '$T/out'"
    if expect "chase dsmem on OpenCL: skipped" 77 "$C" "${FAST[@]}" --spaces dsmem \
        --mode random --sizes 16KiB --out "$T/dsm"; then
        check "chase dsmem on OpenCL: the reason" grep -q "OpenCL has no thread-block clusters" \
            "$T/err"
        check "chase dsmem on OpenCL: nothing written" test ! -e "$T/dsm"
    fi
    if expect "chase --pointers in texture: skipped" 77 "$C" "${FAST[@]}" --pointers \
        --spaces texture --mode random --sizes 16KiB --out "$T/txptr"; then
        check "chase --pointers texture: the reason" grep -q "a texture fetch takes a texel index" \
            "$T/err"
    fi
    if expect "chase --pointers in atomic: skipped" 77 "$C" "${FAST[@]}" --pointers \
        --spaces atomic --mode random --sizes 16KiB --out "$T/atptr"; then
        check "chase --pointers atomic: the reason" grep -q "atomics chase word indices only" \
            "$T/err"
    fi

    # --- bad input: one line on stderr, exit 2, nothing written ----------------------------
    badc() { # name args...
        local name=$1
        shift
        rm -rf "$T/bad"
        if expect "chase bad input: $name" 2 "$C" "${FAST[@]}" --out "$T/bad" "$@"; then
            check "chase bad input: $name: one line on stderr" test "$(wc -l <"$T/err")" = 1
            check "chase bad input: $name: nothing written" test ! -e "$T/bad"
        fi
    }
    badc "--stride 0" --stride 0 --sizes 4KiB
    badc "--stride 6 (not a multiple of 4)" --stride 6 --sizes 4KiB
    badc "working set below one stride" --stride 256 --sizes 128
    badc "--sizes 0" --sizes 0
    badc "--sizes 12Q" --sizes 12Q
    badc "--sizes 1TiB" --sizes 1TiB
    badc "--mode nope" --mode nope
    badc "--spaces nope" --spaces nope
    badc "--page-sizes not a multiple of the stride" --mode page --page-sizes 4KiB \
        --stride 3072 --sizes 1MiB
    badc "--accesses -1" --accesses -1
    badc "--pointers with a stride below an address" --pointers --stride 4 --sizes 4KiB
    badc "--peer beyond the devices" --spaces peer --peer 7 --sizes 4KiB
    badc "--peer the device itself" --spaces peer --peer 0 --sizes 4KiB
    badc "--peer -2" --spaces peer --peer -2 --sizes 4KiB
    badc "--peer without the peer space" --spaces global --peer 1 --sizes 4KiB
    # --- --pointers: address chains (OpenCL: in shared virtual memory), every mode, verified --
    rm -rf "$T/ptr"
    if expect "chase --pointers, every mode" 0 "$C" "${FAST[@]}" --pointers \
        --mode random,stride,page --page-sizes 4KiB --spaces global,shared,constant \
        --sizes 4KiB:256KiB:x4 --out "$T/ptr"; then
        rec=$(ls "$T"/ptr/*-chase.json)
        check "chase --pointers: global points chase addresses, verified" rec points-set "$rec" \
            params.space,extra.chain,extra.verified \
            '[["constant", "word indices (p = a[p])", "full"], ["global", "addresses (p = *p)",
              "full"], ["shared", "word indices (p = a[p])", "full"]]'
        check "chase --pointers: every mode measured" rec points-set "$rec" params.mode \
            '["page", "random", "stride"]'
        check "chase --pointers record validates" "$VALIDATE" "$SCHEMA" "$rec"
    fi
    expect "chase --pointers: planted wrong final element exits 1" 1 "$C" "${FAST[@]}" --pointers \
        --mode random --spaces global --sizes 16KiB --inject-error --out "$T/ptr-inj"

    # --- CUDA without a GPU: skipped with the reason ---------------------------------------
    if expect "chase --backend cuda without a GPU exits 77" 77 "$C" --backend cuda \
        --sizes 4KiB --out "$T/cuda"; then
        check "chase cuda skip says why" grep -qE "no CUDA device|not built" "$T/err"
        check "chase cuda skip writes nothing" test ! -e "$T/cuda"
    fi

    expect "gmb run chase" 0 "$G" run chase "${FAST[@]}" --sizes 4KiB --mode stride \
        --spaces global --out "$T/drv" && check "gmb run chase recorded" \
        test -n "$(ls "$T"/drv/*.json)"
fi
