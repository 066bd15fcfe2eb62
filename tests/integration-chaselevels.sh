# integration-chaselevels.sh - the chase's level names in gmb table (issue 21, items 1, 5, 9):
# no TLB row of any committed H200 run is a cache level (a page-stride level is a TLB level
# only where no cache ends it, gmb_page_level_names); a level no cache ends is published with
# its reach, latency and miss cost; every latency row says which chase it is; PoCL: a CPU's
# page levels stay numbered, the record says what they were named against.
C="$PWD/$BIN/gmb-chase"
H="$PWD/results/nvidia-h200"

# --- every committed H200 directory that holds a chase record: gmb table prints no TLB row
# (none of their page-stride levels is one no cache ends: the 4 and 64 KiB strides' first
# levels are the L1, the 2 MiB stride rises into the L1's size with no plateau after) --------
ndirs=0
for d in $(find "$H" -name '*-chase.json' -exec dirname {} \; | sort -u); do
    ndirs=$((ndirs + 1))
    n=${d#"$H"/}
    if expect "chaselevels: table of $n" 0 "$G" table "$d"; then
        check "chaselevels: $n: no TLB row" bash -c "! grep -q 'TLB level' '$T/out'"
        check "chaselevels: $n: every latency row names its chase" bash -c \
            "! grep -E '^\| [^|]*[Ll]atency[^|]* \| (ns|cycles) ' '$T/out' |
               grep -vE '(pointer chase|index chase|chase not recorded)|Bank-conflict'"
    fi
done
check "chaselevels: the committed chase directories were found" test "$ndirs" -ge 10

# --- a record whose 2 MiB page levels an older gmb-chase named "TLB level N": the table names
# them again against the run's random curve. A step inside the L1 (512 and 1024 lines of 128 B,
# 64 and 128 KiB of a 215 KiB L1) is TLB level 1, published with its reach and miss cost; the
# next level's end mixes a TLB step with the L1's edge (its successor's lines are in the L2):
# no TLB level 2 row; and the committed record of 20261130T230554Z (TLB level 1, 32 cycles,
# reach 1448 MiB, before) gives no row ------------------------------------------------------
SRC="$H/20261130T225242Z-gpu-check/cuda/20261130T225227Z-chase.json"
mkdir -p "$T/cl-old" "$T/cl-new"
/usr/bin/python3 - "$SRC" "$T/cl-old/x-chase.json" "$T/cl-new/x-chase.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
lv = [dict(name="TLB level 1", lat_ns=16.2, lat_cycles=32.0, size_lo_bytes=2**21,
           capacity_bytes=2**30, rise_at_bytes=1276116992, points=30),
      dict(name="TLB level 2", lat_ns=30.0, lat_cycles=60.0, size_lo_bytes=1276116992,
           capacity_bytes=2**31, rise_at_bytes=2553802752, points=4),
      dict(name="TLB level 3", lat_ns=150.0, lat_cycles=300.0, size_lo_bytes=2**33,
           capacity_bytes=2**34, rise_at_bytes=0, points=5)]
for cv in r["results"]["levels"]:
    if cv["mode"] == "page" and cv["page_bytes"] == 2**21 and cv["space"] == "global":
        cv["verdict"], cv["levels"] = "levels", lv
json.dump(r, open(sys.argv[2], "w"))
# as the new gmb-chase writes them: lines_bytes on every level, tlb_level on the TLB ones
for i, l in enumerate(lv):
    l["lines_bytes"] = l["capacity_bytes"] // 2**21 * 128
lv[0].update(name="TLB level 1", tlb_level=1)
lv[1]["name"], lv[2]["name"] = "level 2", "L2 near (page stride)"
json.dump(r, open(sys.argv[3], "w"))
PY
for v in old new; do
    if expect "chaselevels: table, $v-style TLB levels" 0 "$G" table "$T/cl-$v"; then
        check "chaselevels: $v: TLB level 1 with reach, latency, miss cost" bash -c \
            "grep -q '^| TLB level 1 (2 MiB page stride): latency (pointer chase) \
| cycles | 32.00 |' '$T/out' &&
             grep -q '^| TLB level 1 (2 MiB page stride): miss cost (pointer chase) \
| cycles | 28.00 |' '$T/out' &&
             grep -q '^| TLB level 1 (2 MiB page stride): reach | MiB | 1024 |' '$T/out'"
        check "chaselevels: $v: no TLB level 2 row (a cache's edge in its step)" bash -c \
            "! grep -q '^| TLB level 2' '$T/out'"
    fi
done

# --- PoCL: a CPU's page levels are numbered, and the record says why ------------------------
if ! have_opencl; then
    skip "$TAG chaselevels integration: no OpenCL device (install pocl-opencl-icd)"
else
    if expect "chaselevels: PoCL random and page" 0 "$C" "${FAST[@]}" --min-sample-us 300 \
        --mode page,random --page-sizes 4KiB --spaces global --sizes 4KiB:4MiB:x2 \
        --out "$T/pocl"; then
        rec=$(ls "$T"/pocl/*-chase.json)
        check "chaselevels: PoCL: the normal curve first, then the page curve" \
            rec chase-curve-modes "$rec" random page
        check "chaselevels: PoCL: page levels numbered, against nothing (a CPU)" \
            rec chase-page-levels-numbered "$rec" "none: a CPU's levels are numbered"
        check "chaselevels: PoCL: page strides and span recorded, no granularity on OpenCL" \
            rec fields "$rec" "results.pages.page_sizes_bytes=[4096]" \
            results.pages.alloc_granularity_bytes=null \
            "results.pages.alloc_granularity_source=none: OpenCL has no such query"
        check "chaselevels: PoCL: the record validates" "$VALIDATE" "$SCHEMA" "$rec"
        if expect "chaselevels: PoCL table" 0 "$G" table "$T/pocl"; then
            # (its levels, when the noisy CPU curve has any: no timing is asserted)
            check "chaselevels: PoCL: its latency rows say index chase" bash -c \
                "! grep '^| Latency level' '$T/out' |
                   grep -v '^| Latency level [0-9] (index chase) |'"
        fi
    fi
fi

# an OpenCL GPU column carries the hierarchy's names: the committed H200 OpenCL chase (written
# before gmb-chase named OpenCL levels, "level 1..3", "memory") is named from the cache the
# device reported, and lines up with the CUDA column of the same GPU
OC=results/nvidia-h200/20261130T225242Z-gpu-check
if [ -d "$OC/opencl" ] && expect "chaselevels: table of the H200 OpenCL and CUDA chases" 0 "$G" \
    table "$OC/opencl" "$OC/cuda"; then
    for row in "L1 latency (index chase)" "L2 latency (index chase)" \
        "L2 far latency (index chase)" "DRAM latency (index chase)"; do
        check "chaselevels: H200 OpenCL column: $row" bash -c \
            "grep -F '| $row | cycles | ' '$T/out' |
             grep -qE '^\\| [^|]+ \\| cycles \\| [0-9.]+ \\[' "
    done
    check "chaselevels: H200 OpenCL column: no numbered latency level left" bash -c \
        "! grep -q '^| Latency level [0-9] (index chase) | [a-z]* | [0-9]' '$T/out'"
    check "chaselevels: H200 OpenCL column: the L2 capacity cross-checks the reported cache" \
        grep -qE '^\| L2 capacity \(latency curve\) \| MiB \| [0-9.]+' "$T/out"
fi
