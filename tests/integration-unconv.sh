# integration-unconv.sh - gmb table marks (†) a value half or more of whose points did not
# converge, in every format, with a legend; on the committed H200 quick profile (its far L2,
# cache capacity, loaded knee and managed-memory figures rest on unconverged points) and on
# PoCL records whose points' convergence is set by hand.
Q="$PWD/results/nvidia-h200/20261130T232558Z"
# a table row's first cell (Markdown), by its label and unit
md_cell() {
    grep -F "| $1 | $2 |" "$T/q.md" | head -1 | awk -F' \\| ' '{print $3}' | sed 's/ |$//'
}
if expect "unconv: gmb table of the H200 quick run" 0 "$G" table "$Q"; then
    cp "$T/out" "$T/q.md"
    for row in "L2 far latency (pointer chase)|cycles" "L2 far latency (pointer chase)|ns" \
        "L2 capacity (latency curve)|MiB" \
        "Loaded: latency at the knee (97% of that bandwidth; index chase)|ns" \
        "Managed: host reads device-written data|GB/s" "Managed: prefetch to the device|GB/s" \
        "Page fault, one touch per 2 MiB|us"; do
        check "unconv: H200 quick: ${row%|*} (${row#*|}) marked" bash -c \
            "[[ '$(md_cell "${row%|*}" "${row#*|}")' == *' †' ]]"
    done
    for row in "L1 latency (pointer chase)|cycles" "L2 latency (pointer chase)|cycles" \
        "DRAM latency (pointer chase)|cycles" "Read bandwidth|GB/s" \
        "Loaded: chase latency, idle (index chase)|ns" \
        "Managed: device reads it on the host (advice)|GB/s"; do
        check "unconv: H200 quick: ${row%|*} (${row#*|}) not marked" bash -c \
            "c='$(md_cell "${row%|*}" "${row#*|}")'; [ -n \"\$c\" ] && [[ \$c != *'†'* ]]"
    done
    check "unconv: H200 quick: the legend under the table" grep -q \
        "†: half or more of the points it rests on did not converge" "$T/q.md"
fi
if expect "unconv: H200 quick, csv" 0 "$G" table "$Q" --format csv; then
    check "unconv: csv: an unconverged column, far L2 4 of 4, L1 0 of 12" /usr/bin/python3 -c "
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='')))
h = rows[0]; k = h.index('NVIDIA H200 (CUDA) unconverged')
v = {(r[0], r[1]): r[k] for r in rows[1:]}
sys.exit(0 if (k == 5 and all(len(r) == len(h) for r in rows)
               and v[('L2 far latency (pointer chase)', 'cycles')] == '4/4'
               and v[('L1 latency (pointer chase)', 'cycles')] == '0/12'
               and v[('L2 capacity (latency curve)', 'MiB')] == '5/5'
               and v[('Memory size', 'GiB')] == '') else 1)" "$T/out"
fi
if expect "unconv: H200 quick, LaTeX" 0 "$G" table "$Q" --format tex; then
    check "unconv: tex: the far L2 marked \\dag" grep -qF \
        "L2 far latency (pointer chase) (cycles) & 531.7 \
{\\footnotesize[491.6, 538.9]}\\textsuperscript{\\dag}" "$T/out"
    check "unconv: tex: the legend in the comment line" grep -q "; dagger: half or more" "$T/out"
fi
if expect "unconv: the H200 quick run's report" 0 "$G" report "$Q" --out -; then
    check "unconv: report: the chase's cache capacity marked in the cross-check" grep -q \
        "chase: where the latency curve leaves the L2: 49.35 †" "$T/out"
    check "unconv: report: the driver's capacity not marked" grep -q \
        "the driver's figure: 60.00; " "$T/out"
fi

# --- PoCL records, their points' convergence set by hand ------------------------------------
if ! have_opencl; then
    skip "$TAG integration unconv: no OpenCL device (install pocl-opencl-icd)"
elif expect "unconv: a PoCL stream record" 0 "$PWD/$BIN/gmb-stream" "${FAST[@]}" --kernels read \
    --sizes 1MiB,4MiB --out "$T/s"; then
    rec=$(ls "$T"/s/*-stream.json)
    conv() { # dir converged-of-the-best-point: a copy of the record, every other point converged
        mkdir -p "$1"
        /usr/bin/python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
b = r['results']['best']['read']
for p in r['points']:
    best = p['params']['kernel'] == 'read' and p['params']['size_bytes'] == b['size_bytes']
    p['time_ns']['converged'] = (sys.argv[3] == '1') if best else True
json.dump(r, open(sys.argv[2], 'w'))" "$rec" "$1/stream.json" "$2"
    }
    conv "$T/c1" 1
    conv "$T/c0" 0
    if expect "unconv: PoCL, every point converged" 0 "$G" table "$T/c1"; then
        check "unconv: PoCL converged: no mark, no legend" bash -c "! grep -q '†' '$T/out'"
    fi
    if expect "unconv: PoCL, the best read point not converged" 0 "$G" table "$T/c0"; then
        check "unconv: PoCL: the read bandwidth marked" \
            grep -qE "^\| Read bandwidth \| GB/s \| .* † \|$" "$T/out"
        check "unconv: PoCL: the legend" grep -q "†: half or more" "$T/out"
    fi
    if expect "unconv: two runs side by side" 0 "$G" table "$T/c1" "$T/c0" --format csv; then
        check "unconv: two runs: only the unconverged run's cell counts 1/1" /usr/bin/python3 -c "
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='')))
r = [x for x in rows if x[0] == 'Read bandwidth'][0]
sys.exit(0 if (r[5], r[9]) == ('0/1', '1/1') else 1)" "$T/out"
    fi
fi
