#!/usr/bin/env bash
# gpu-check.sh - on a machine with an NVIDIA GPU: build gmb, run it on CUDA and on OpenCL
# (device 0), print short summaries, exit non-zero when a verification fails or a run breaks.
#
# One call of a lent GPU machine has to bring everything back, so the runs go in order of
# what they show (the issues' GPU targets first: the stream and chase default sweeps on
# CUDA, then the quick `gmb run`), each under a deadline: GMB_CHECK_BUDGET seconds in all
# (default 400), a step that would not fit is skipped and says so. Everything is kept in a
# work directory and packed after every step into $OUT/gmb-check.tgz (one file, since only
# a few files come back from $OUT), with the log as $OUT/gmb-check.log.
# Packages carried in .debs/ (tests/gpu-debs.sh) are unpacked into a temporary directory,
# never into /. GMB_CHECK_SIZES: stream sizes instead of its defaults. GMB_CHECK_ONLY: a
# space-separated list of step names to run (e.g. "stream-cuda chase-cuda").
set -u
cd "$(dirname "$0")/.."
t_start=$(date +%s.%N)
BUDGET=${GMB_CHECK_BUDGET:-400}
RET=${OUT:-$(mktemp -d /tmp/gmb-out.XXXXXX)}
OUTDIR=$(mktemp -d /tmp/gmb-check.XXXXXX)
exec > >(tee -a "$RET/gmb-check.log") 2>&1
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
left() {
    awk -v a="$t_start" -v b="$(date +%s.%N)" -v B="$BUDGET" 'BEGIN { printf "%d", B - (b - a) }'
}
pack() { tar czf "$RET/gmb-check.tgz.part" -C "$OUTDIR" . 2>/dev/null &&
    mv -f "$RET/gmb-check.tgz.part" "$RET/gmb-check.tgz"; }
# stream at its default sizes (issue 2 times that sweep: < 20 s on an H100/H200), unless
# GMB_CHECK_SIZES names others
SIZES=(${GMB_CHECK_SIZES:+--sizes "$GMB_CHECK_SIZES"})
# (the tree's commit: .debs/REV where tests/gpu-debs.sh wrote it; git describe here sees the
# checkout the session started from)
echo "== gmb gpu-check $(cat .debs/REV 2>/dev/null || git describe --always --dirty 2>/dev/null) \
on $(hostname), $(date -u +%FT%TZ), budget ${BUDGET} s"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,\
clocks.max.mem,pcie.link.gen.current,pcie.link.width.current \
    --format=csv 2>/dev/null || echo "(nvidia-smi not available)"
nvidia-smi -q >"$OUTDIR/nvidia-smi-before.txt" 2>&1

# carried packages: unpack into a private root and point the build and the loader at it
if ls .debs/*.deb >/dev/null 2>&1; then
    R=$(mktemp -d /tmp/gmb-root.XXXXXX)
    for d in .debs/*.deb; do # dpkg -x, or by hand where the image has no dpkg
        if command -v dpkg >/dev/null; then
            dpkg -x "$d" "$R"
        else
            m=$(ar t "$d" | grep '^data\.tar')
            case $m in
            *.xz) ar p "$d" "$m" | tar xJ -C "$R" ;;
            *.zst) ar p "$d" "$m" | zstd -dc | tar x -C "$R" ;;
            *) ar p "$d" "$m" | tar xz -C "$R" ;;
            esac
        fi
    done
    L=$R/usr/lib/x86_64-linux-gnu
    # libraries the machine most likely has in newer versions (libudev for hwloc, libxml2):
    # searched after the machine's own, never before
    mkdir -p "$R/fallback"
    mv "$L"/libudev.so* "$L"/libxml2.so* "$R/fallback/" 2>/dev/null || true
    export PKG_CONFIG_PATH=$L/pkgconfig:$R/usr/share/pkgconfig PKG_CONFIG_SYSROOT_DIR=$R
    export LD_LIBRARY_PATH=$L${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}:/lib/x86_64-linux-gnu\
:/usr/lib/x86_64-linux-gnu:$R/fallback
    export LIBRARY_PATH=$L
    # (hwloc's autogen/config.h sits in the multiarch directory: pkg-config would name it,
    # but the machine may have no pkg-config)
    export C_INCLUDE_PATH=$R/usr/include:$R/usr/include/x86_64-linux-gnu PATH=$R/usr/bin:$PATH
    echo "unpacked $(ls .debs/*.deb | wc -l) carried packages into $R"
fi
ls /etc/OpenCL/vendors 2>/dev/null | sed 's/^/OpenCL vendor file: /'
ldconfig -p 2>/dev/null | grep -E 'libnvidia-opencl|libcuda\.so\.1|libnvidia-ml' |
    sed 's/^/driver library: /'

echo "== build"
t0=$(date +%s.%N)
# (another gcc or CUDA there may warn where ours does not: then once more without -Werror)
MK=(CUDA_ARCHS="${CUDA_ARCHS:-90}") # what the build that worked was made with
# the records' gmb.git: the commit tests/gpu-debs.sh wrote here before the call (git describe
# on this machine sees the checkout the session started from)
[ -s .debs/REV ] && MK+=(GIT_REV="$(cat .debs/REV)") && echo "tree of commit $(cat .debs/REV)"
make -j"$(nproc)" "${MK[@]}" all >"$OUTDIR/build.log" 2>&1 || {
    tail -30 "$OUTDIR/build.log"
    echo "BUILD FAILED with -Werror: once more without it"
    MK+=(WARN="-Wall -Wextra" NVFLAGS="-O3 -std=c++17")
    make -j"$(nproc)" "${MK[@]}" all >"$OUTDIR/build2.log" 2>&1 || {
        tail -30 "$OUTDIR/build2.log"
        echo "BUILD FAILED"
        pack
        exit 3
    }
}
tail -3 "$OUTDIR/build.log"
# every library the programs need must load here: else once more without hwloc (locality
# then reads 'unknown'), the one optional library with dependencies of its own
if ldd bin/gmb-stream | grep -q "not found"; then
    ldd bin/gmb-stream | grep "not found"
    echo "a library is missing: building once more without hwloc"
    make -j"$(nproc)" "${MK[@]}" HAVE_HWLOC=0 all >"$OUTDIR/build3.log" 2>&1 &&
        ! ldd bin/gmb-stream | grep "not found" || {
        # the carried OpenCL loader may not load here: CUDA alone still answers the issues
        echo "still missing: building once more without hwloc and OpenCL (the CUDA steps run)"
        make -j"$(nproc)" "${MK[@]}" HAVE_HWLOC=0 OPENCL=0 all >"$OUTDIR/build4.log" 2>&1 &&
            ! ldd bin/gmb-stream | grep "not found" || {
            echo "BUILD UNUSABLE: a library is still missing"
            pack
            exit 3
        }
    }
fi
echo "build: $(since "$t0") s"
bin/gmb devices 2>&1 | tee "$OUTDIR/devices.txt"

status=0
UNRUN="" # steps the budget left out
if ! grep -q '^cuda  *0 ' "$OUTDIR/devices.txt"; then
    echo "CUDA device 0 missing (devices above): CUDA not built (nvcc not found?) or no device"
    status=1
fi
# the OpenCL runs below must reach NVIDIA's GPU: not skip, not fall back to a CPU device
if ! grep -A1 '^opencl *0 ' "$OUTDIR/devices.txt" | grep -q 'gpu; NVIDIA'; then
    echo "OpenCL device 0 is not NVIDIA's GPU (devices above): the OpenCL steps test nothing"
    status=1
fi
wanted() { # name: is the step asked for? GMB_CHECK_ONLY: names or glob patterns (stream-tune-*)
    local w
    [ -z "${GMB_CHECK_ONLY:-}" ] && return 0
    for w in $GMB_CHECK_ONLY; do
        # shellcheck disable=SC2053 # (a pattern on purpose)
        [[ $1 == $w ]] && return 0
    done
    return 1
}
step() { # name max_s args...: run a program under the deadline, keep its output, note failures
    local name=$1 max=$2 t0 rc lim
    shift 2
    wanted "$name" || return 0
    lim=$(($(left) - 15)) # keep time to summarise and pack
    [ "$lim" -gt "$max" ] && lim=$max
    if [ "$lim" -lt 10 ]; then
        printf '%-24s skipped: the budget is spent\n' "$name"
        UNRUN="${UNRUN:+$UNRUN }$name"
        return 0
    fi
    t0=$(date +%s.%N)
    # SIGINT first: gmb run then keeps what it finished and a valid manifest
    timeout -s INT -k 10 "$lim" "$@" >"$OUTDIR/$name.txt" 2>&1
    rc=$?
    printf '%-24s exit %-3d %6s s  %s\n' "$name" "$rc" "$(since "$t0")" "$*"
    printf '%s\t%d\t%s\n' "$name" "$rc" "$(since "$t0")" >>"$OUTDIR/steps.tsv"
    case $rc in
    0) ;;
    77) # a skip is fine for a part the API lacks, never for CUDA itself on a GPU machine
        if [[ $name == *-cuda ]] &&
            grep -qE "no CUDA device|'cuda' was not built" "$OUTDIR/$name.txt"; then
            status=1
            echo "  CUDA missing: not built (nvcc not found?) or no device \
(driver older than the CUDA 13 runtime?)"
        fi
        if [[ $name == *-opencl ]] &&
            grep -qE "no OpenCL (platform|device)|'opencl' was not built" "$OUTDIR/$name.txt"; then
            status=1
            echo "  OpenCL missing: backend not built (.debs carried?) \
or libnvidia-opencl.so.1 not loaded"
        fi ;;
    124 | 130 | 137)
        status=1
        echo "  stopped at its limit of $lim s"
        tail -3 "$OUTDIR/$name.txt"
        ;;
    *) status=1; tail -5 "$OUTDIR/$name.txt" ;;
    esac
    pack
}

echo "== runs, most important first (limit per step in seconds, budget left $(left) s)"
# issue 2: stream default sweep < 20 s, read >= 95 %, triad >= 90 %, copy >= 84 % of peak
step stream-cuda 60 bin/gmb-stream --backend cuda --device 0 ${SIZES[@]+"${SIZES[@]}"} \
    --out "$OUTDIR/cuda"
# issue 3: chase default sweep <= 30 s, L1 30-40, L2 200-300, DRAM 550-800 cycles
step chase-cuda 90 bin/gmb-chase --backend cuda --device 0 --out "$OUTDIR/cuda"
# issue 6: the quick profile <= 90 s, then its table (figures: gmb plot wherever gnuplot is)
step suite-cuda 150 bin/gmb run --backend cuda --results "$OUTDIR/suite" --timeout 60
rundir=$(ls -d "$OUTDIR"/suite/*/*/ 2>/dev/null | tail -1)
# does occupancy or the L2 256-byte prefetch hint move the DRAM ceiling? read, copy, triad at
# 1 and 2 GiB with larger groups, and with --l2-prefetch
for gs in 512 1024; do
    step "stream-gs$gs-cuda" 20 bin/gmb-stream --backend cuda --device 0 --kernels read,copy,triad \
        --sizes 1GiB,2GiB --group-size "$gs" --out "$OUTDIR/cuda-gs$gs"
done
# the chase without its address arithmetic: 64-bit address chains, global spaces
step chase-ptr-cuda 45 bin/gmb-chase --backend cuda --device 0 --pointers --mode random \
    --spaces global,global-cg,shared --out "$OUTDIR/cuda-ptr"
step stream-l2pf-cuda 20 bin/gmb-stream --backend cuda --device 0 --kernels read,copy,triad \
    --sizes 1GiB,2GiB --l2-prefetch --out "$OUTDIR/cuda-l2pf"
# its control: the same inline-PTX loads, no hint (the same SASS schedule)
step stream-asm-cuda 20 bin/gmb-stream --backend cuda --device 0 --kernels read,copy,triad \
    --sizes 1GiB,2GiB --asm-loads --out "$OUTDIR/cuda-asm"
# where copy and triad fall short of read (82 and 86 % of peak against 96 % on the H200,
# 2026-11-30): occupancy, a grid past the resident one (one pass, no grid-stride loop),
# evict-first hints, narrower accesses; read, fill, copy, triad at 1 and 2 GiB
tune() { # name args...
    local n=$1
    shift
    step "stream-tune-$n-cuda" 20 bin/gmb-stream --backend cuda --device 0 \
        --kernels read,fill,copy,triad --sizes 1GiB,2GiB "$@" --out "$OUTDIR/tune-$n"
}
tune default
tune gpc1 --groups-per-cu 1
tune gpc2 --groups-per-cu 2
tune gpc4 --groups-per-cu 4
tune gpc1024 --groups-per-cu 1024
tune gs1024gpc1 --group-size 1024 --groups-per-cu 1
tune gs1024gpc64 --group-size 1024 --groups-per-cu 64
tune efst --evict-first stores
tune efall --evict-first all
tune efst-gpc1024 --evict-first stores --groups-per-cu 1024
tune efall-gpc4 --evict-first all --groups-per-cu 4
tune w8 --widths 8
tune w4 --widths 4
# (after the first tuning run: the tiled layout; one-pass grids, no longer repeated in-kernel)
tune tiled --tiled
tune tiled-gpc2 --tiled --groups-per-cu 2
tune gs1024gpc1024 --group-size 1024 --groups-per-cu 1024
# the dynamic layout: resident groups claim 16 x 256-element chunks from a counter (no group
# idle at the end: every fixed-work grid read 94.3-94.7% of peak on three 692-2G520-0282-001
# boards, where gmb-loaded's streamers, running for a time, not a size, read 96.5-96.6%)
tune dynamic --dynamic
# the flat layout (one pass, no loop, J elements a work-item; J = 1 is BabelStream's shape;
# repeated by launches) and the lockstep layout (tiled, a group barrier a tile), both tuning
# candidates on every device since 2026-12-02; the default step above re-measures the choice
tune flat1 --flat 1
tune flat16 --flat 16
tune lockstep --lockstep
# a program that hangs: its threads' stacks after 20 s (cuda-gdb attaches to host code); run
# only when GMB_CHECK_ONLY names it
diag() { # name args...
    local name=$1 pid i
    shift
    # (asked for by name only: a diagnosis, not a measurement)
    [[ " ${GMB_CHECK_ONLY:-} " == *" $name "* ]] || return 0
    "$@" >"$OUTDIR/$name.txt" 2>&1 &
    pid=$!
    for i in $(seq 20); do
        sleep 1
        kill -0 "$pid" 2>/dev/null || break
    done
    if kill -0 "$pid" 2>/dev/null; then
        echo "$name: still running after 20 s: its stacks in $name-bt.txt"
        timeout 30 cuda-gdb -p "$pid" -batch -ex "thread apply all bt" >"$OUTDIR/$name-bt.txt" 2>&1
        grep -E "^#[0-9]+ " "$OUTDIR/$name-bt.txt" | head -25
        kill -9 "$pid" 2>/dev/null
    else
        wait "$pid"
        echo "$name: exit $? within 20 s"
    fi
    tail -4 "$OUTDIR/$name.txt"
    pack
}
diag diag-stream-opencl bin/gmb-stream --backend opencl --device 0 --kernels read,copy \
    --sizes 4KiB,1MiB,1GiB --out "$OUTDIR/diag-opencl"
diag diag-access-opencl bin/gmb-access --backend opencl --device 0 --out "$OUTDIR/diag-opencl"
# the OpenCL side of the same two targets
# (each line stamped with the time it came (EPOCHREALTIME): NVIDIA's OpenCL ran past 60 s in
# calls 1 and 3, about 1.5 s a point, cause not known)
step stream-opencl 60 bash -c 'set -o pipefail; echo "start $EPOCHREALTIME"; "$@" 2>&1 |
    while IFS= read -r l; do echo "$EPOCHREALTIME $l"; done' _ bin/gmb-stream \
    --backend opencl --device 0 ${SIZES[@]+"${SIZES[@]}"} --out "$OUTDIR/opencl"
step chase-opencl 90 bin/gmb-chase --backend opencl --device 0 --out "$OUTDIR/opencl"
step chase-ptr-opencl 45 bin/gmb-chase --backend opencl --device 0 --pointers --mode random \
    --spaces global --out "$OUTDIR/opencl-ptr"
# the other programs at their default sweeps
for b in cuda opencl; do
    step "bank-$b" 45 bin/gmb-bank --backend "$b" --device 0 --out "$OUTDIR/$b"
    step "l2-$b" 60 bin/gmb-l2 --backend "$b" --device 0 --out "$OUTDIR/$b"
    step "copy-$b" 60 bin/gmb-copy --backend "$b" --device 0 --out "$OUTDIR/$b" \
        --time-cap 0.3 --max-samples 20
    # managed memory: at most 1 GiB, never more than half the GPU (the program refuses more)
    step "um-$b" 45 bin/gmb-um --backend "$b" --device 0 --out "$OUTDIR/$b" \
        --sizes 16MiB:1GiB:x4 --time-cap 0.3 --max-samples 10
done
# the copy kernel: one-pass (the default) against the resident grid-stride grid, every
# direction it runs (d2d, mapped h2d/d2h/bidir)
for g in one-pass resident; do
    step "copy-sm-$g-cuda" 30 bin/gmb-copy --backend cuda --device 0 --engines sm --sm-grid "$g" \
        --time-cap 0.3 --max-samples 20 --out "$OUTDIR/cuda-sm-$g"
done
# SM bidir (issue 22): nvbandwidth's split-warp copy (the default) against two kernels on two
# streams, mapped host memory, 64 MiB to 1 GiB; nvbandwidth prints per_direction_GBps
step copy-bidir-cuda 40 bash -c 'for h in split streams; do "$0" --backend cuda --device 0 \
    --directions bidir --kinds mapped --engines sm --sizes 64MiB:1GiB:x4 --sm-bidir "$h" \
    --time-cap 0.5 --max-samples 20 --out "$1/cuda-bidir-$h" || exit; done' bin/gmb-copy "$OUTDIR"
# latency under load: the DRAM chase beside 0 .. every resident streaming group
for b in cuda opencl; do
    step "loaded-$b" 45 bin/gmb-loaded --backend "$b" --device 0 --out "$OUTDIR/$b" \
        --traffic read,write --time-cap 0.3 --max-samples 30
done
# bandwidth by access pattern: stride between neighbouring reads (coalescing), misalignment,
# blocks read at random places by block size (12 points more than before: 40 s, not 30)
for b in cuda opencl; do
    step "access-$b" 40 bin/gmb-access --backend "$b" --device 0 --out "$OUTDIR/$b"
done
# random blocks read and written (random-write is not in the default): the default buffer of
# 16x the L2, the writes read back and checked in full (about a second a point, a guess),
# 28 points (per pattern 3 in-order references, one per access width, and 11 blocks)
for b in cuda opencl; do
    step "access-rw-$b" 45 bin/gmb-access --backend "$b" --device 0 --patterns random,random-write \
        --out "$OUTDIR/$b-rw"
done
# atomics by contention: global (the L2's atomic units) and shared, red and atom
for b in cuda opencl; do
    step "atomic-$b" 30 bin/gmb-atomic --backend "$b" --device 0 --out "$OUTDIR/$b" \
        --time-cap 0.3 --max-samples 30
done
# copies beside kernels (overlap efficiency; the kernels calibrated to the copy's length) and
# the arithmetic-intensity sweep to k = 1024, FP32 and FP64 (the measured ridge point)
for b in cuda opencl; do
    step "overlap-$b" 40 bin/gmb-overlap --backend "$b" --device 0 --out "$OUTDIR/$b" \
        --time-cap 0.3 --max-samples 30
done
# how much memory: the largest allocation (bisection, every probe touched and checked), the
# total in chunks, allocation time by allocator, fragmentation, and exhaustion, bounded in time
# (plain device memory only: within the default --limit, the free memory less 5%; then the
# refusal of one allocation of the whole device)
for b in cuda opencl; do
    step "capacity-$b" 60 bin/gmb-capacity --backend "$b" --device 0 --out "$OUTDIR/$b" \
        --parts all --exhaust-time-cap 20 --time-cap 0.3 --max-samples 10
done
# the device's own largest allocation (against cudaMemGetInfo's free) and a real exhaustion:
# --limit the free memory less 1 MiB
step capacity-max-cuda 60 bin/gmb-capacity --backend cuda --device 0 --parts largest,exhaust \
    --margin 1MiB --exhaust-time-cap 20 --out "$OUTDIR/cuda-capmax"
# latency of another SM's shared memory (distributed shared memory, a cluster of two), of
# atomics (done at the L2) and of the texture path (tex1Dfetch), and across a link:
# the GPU's loads from mapped pinned host memory (PCIe or C2C) and from a peer GPU's memory
# (skipped with one GPU), past 4x L2
step chase-more-cuda 70 bin/gmb-chase --backend cuda --device 0 \
    --spaces atomic,texture,host,peer,dsmem \
    --mode random --sizes 4KiB:1GiB:1/oct --time-cap 0.3 --max-samples 20 --out "$OUTDIR/cuda-more"
# issue 21: page strides at and above the allocation granularity G (4 KiB, 64 KiB, G, 16 G
# by default) over 16 GiB, beside the random chase whose caches the page levels are named
# against (a TLB level only where no cache ends it); the levels it found, with reach and miss
# cost, and the granularity the driver gave
step chase-pages-cuda 120 bin/gmb-chase --backend cuda --device 0 --spaces global \
    --mode random,page --time-cap 0.3 --max-samples 20 --out "$OUTDIR/cuda-pages"
if wanted chase-pages-cuda && [ -s "$OUTDIR/chase-pages-cuda.txt" ]; then
    grep '^# levels:' "$OUTDIR/chase-pages-cuda.txt" | tr ';' '\n' |
        grep -iE 'page-stride|TLB' | head -20
    python3 -c "import json,glob; \
r=json.load(open(sorted(glob.glob('$OUTDIR/cuda-pages/*-chase.json'))[-1])); \
print('pages:', r['results'].get('pages'))" 2>/dev/null
fi
# the host side of on-demand migration with several host threads (1 above: the lower bound)
step um-threads-cuda 30 bin/gmb-um --backend cuda --device 0 --out "$OUTDIR/cuda-threads" \
    --tests fault-d2h --host-threads 8 --sizes 256MiB,1GiB --time-cap 0.3 --max-samples 10
# fault-d2h's new timing: one host load a 4 KiB page (the migration), every word checked after
# it (host_resident_GBps: one thread's check, pages on the host; it bounded the old figure,
# 2.66 GB/s at 1 GiB on an H200 against a 4.69 GB/s re-read); 1 and 8 host threads' touches,
# at most about 0.4 s a 1 GiB sample (prefetch, write, touches, a one-thread check)
step um-touch-cuda 40 bin/gmb-um --backend cuda --device 0 --out "$OUTDIR/cuda-touch" \
    --tests fault-d2h --sizes 64MiB,256MiB,1GiB --time-cap 2 --max-samples 10
step um-touch8-cuda 30 bin/gmb-um --backend cuda --device 0 --out "$OUTDIR/cuda-touch8" \
    --tests fault-d2h --host-threads 8 --sizes 256MiB,1GiB --time-cap 2 --max-samples 10
# the quick profile's chase, loaded and um as plots/profiles.conf now has them: do the far L2
# points, the loaded knee and the managed-memory figures converge (gmb table marks with a
# dagger what rests on points that did not)? about 25 s on an H200 by the lines' estimates
step quick-converge-cuda 90 bin/gmb run --backend cuda --only chase,loaded,um \
    --results "$OUTDIR/quick-converge" --timeout 60
# timing A/B: the stream held by a host-function gate until the timed work is enqueued
# (GMB_CUDA_GATE=1, opt-in until seen on a GPU) against plain events, where it matters: small
# copies (host enqueue rate vs device time) and one-pass L2 cold/warm samples (persistence
# runs on a stream of its own, never gated)
for g in 0 1; do
    step "copy-gate$g-cuda" 30 env GMB_CUDA_GATE=$g bin/gmb-copy --backend cuda --device 0 \
        --directions h2d,d2h,d2d --kinds pinned --engines ce --sizes 4KiB:4MiB:x4 \
        --time-cap 0.3 --max-samples 20 --out "$OUTDIR/cuda-gate$g"
    step "l2-gate$g-cuda" 30 env GMB_CUDA_GATE=$g bin/gmb-l2 --backend cuda --device 0 \
        --parts coldwarm --time-cap 0.3 --max-samples 20 --out "$OUTDIR/cuda-gate$g"
done
# board energy per bit (NVML's energy counter): read, copy, triad at 2 GiB per array, 3 s each
step stream-energy-cuda 40 bin/gmb-stream --backend cuda --device 0 --kernels read,copy,triad \
    --sizes 2GiB --energy 3 --out "$OUTDIR/cuda-energy"
# the bytes stream counts against the bytes DRAM moved: Nsight Compute's counters (hardware
# counters: the lent machine's runtime allows them; the clocks are left alone) over a few
# launches of read, fill, copy and triad at 512 MiB an array (over 4x the L2)
NCU=$(command -v ncu ||
    ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
if [ -n "$NCU" ]; then # (informative: a profiler that fails says why below, status kept)
    step counters-cuda 60 bash -c '"$@" || echo "ncu: exit $? (its log: ncu.csv)"' _ \
        "$NCU" --clock-control none --print-units base --csv \
        --log-file "$OUTDIR/ncu.csv" --metrics dram__bytes_read.sum,dram__bytes_write.sum \
        --kernel-name regex:'stream_(read|fill|copy|triad)' --launch-count 16 \
        bin/gmb-stream --backend cuda --device 0 --kernels read,fill,copy,triad --sizes 512MiB \
        --warmup 0 --min-samples 2 --max-samples 3 --no-record
else
    printf '%-24s skipped: no ncu (Nsight Compute) here\n' counters-cuda
fi
# the same question in process (issue 24): --counters, CUPTI's range profiler, one extra sample
# a point after the timed ones: stream's DRAM bytes against its count (read, fill, copy, triad
# at 512 MiB, over 4x the L2), and the L2's own hit rate of gmb-l2's read and write sets from
# 4 to 128 MiB beside their bandwidth
step stream-cupti-cuda 40 bin/gmb-stream --backend cuda --device 0 --kernels read,fill,copy,triad \
    --sizes 64MiB,512MiB --counters --time-cap 0.3 --max-samples 20 --out "$OUTDIR/cuda-cupti"
step l2-cupti-cuda 45 bin/gmb-l2 --backend cuda --device 0 --parts read,write \
    --sizes 4MiB:128MiB:2/oct --counters --time-cap 0.3 --max-samples 20 --out "$OUTDIR/cuda-cupti"
# gmb-l2's parts that the H200 runs of 2026-11-30 got wrong (issue 21): the partition test
# (every line of a 3/4-L2 buffer from 8 SMs), persistence and cold/warm above the launch
step l2-more-cuda 60 bin/gmb-l2 --backend cuda --device 0 --parts partitions,persistence,coldwarm \
    --time-cap 0.5 --max-samples 30 --out "$OUTDIR/cuda-l2more"
# the L1s' aggregate bandwidth (issue 22): every SM re-reads one set through L1, 4 KiB to
# half the L2; the level table (gmb table --levels) of these records and the suite's
step l2-l1-cuda 30 bin/gmb-l2 --backend cuda --device 0 --parts l1,read --time-cap 0.3 \
    --max-samples 30 --out "$OUTDIR/cuda-l2l1"
# what the L2 serves of gmb-l2's read and write sets (the 56-64 MiB read points stayed at the
# L2's bandwidth on a 60 MiB L2): Nsight Compute's L2 hit rate, one run a size and part,
# every launch of the point profiled (the timed ones are the last), 20 s each at most
if [ -n "$NCU" ]; then
    step l2-counters-cuda 150 bash -c 'for part in read write; do for s in 4 32 48 64 128; do
        timeout -k 5 20 "$0" --clock-control none --print-units base --csv \
            --log-file "$1/ncu-l2-$part-$s.csv" \
            --metrics lts__t_sector_hit_rate.pct,lts__t_sectors.sum,\
dram__bytes_read.sum,dram__bytes_write.sum \
            --kernel-name regex:"l2_(read|write)" \
            bin/gmb-l2 --backend cuda --device 0 --parts "$part" --sizes "${s}MiB" \
            --warmup 0 --min-samples 3 --max-samples 3 --no-record >/dev/null ||
            echo "ncu: $part $s MiB: exit $?"; done; done' "$NCU" "$OUTDIR"
else
    printf '%-24s skipped: no ncu (Nsight Compute) here\n' l2-counters-cuda
fi
nvidia-smi -q >"$OUTDIR/nvidia-smi-after.txt" 2>&1

echo "== stream: best DRAM bandwidth per kernel (median GB/s, % of nominal peak)"
python3 - "$OUTDIR" <<'PY'
import glob, json, sys
for path in sorted(glob.glob(sys.argv[1] + "/*/*-stream.json")):
    r = json.load(open(path))
    d = r["device"]
    print(f"{path.split('/')[-2]}: {d['name']}, peak {d['peak_bw_GBps']:.0f} GB/s "
          f"({d['peak_bw_source']}), status {r['status']}")
    for k, b in r["results"].get("best", {}).items():
        pct = f"{b['pct_peak']:.1f}%" if "pct_peak" in b else "-"
        print(f"  {k:6s} {b['bw_GBps']:9.1f} GB/s  {pct:>7s}  width {b['width_bytes']:2d} B  "
              f"size {b['size_bytes'] / 2**20:g} MiB  {'DRAM' if b['dram'] else 'cache'}")
PY
echo "== stream tuning (CUDA): GB/s at 1 GiB / 2 GiB per kernel, each configuration"
python3 - "$OUTDIR" <<'PY'
import glob, json, sys
for d in sorted(glob.glob(sys.argv[1] + "/tune-*")):
    for path in sorted(glob.glob(d + "/*-stream.json")):
        r = json.load(open(path))
        got = {}
        for p in r["points"]:
            k = p["params"]["kernel"]
            got.setdefault(k, []).append(f"{p['metrics']['bw_GBps']['median']:6.0f}")
        peak = r["device"]["peak_bw_GBps"]
        best = r["results"].get("best", {})
        pct = " ".join(f"{k} {100 * b['bw_GBps'] / peak:4.1f}%" for k, b in best.items())
        print(f"{d.split('/tune-')[-1]:14s} "
              + "  ".join(f"{k} {'/'.join(v)}" for k, v in got.items()) + f"   best: {pct}")
PY
echo "== chase: latency levels detected (default sweep; wall times above)"
grep -h "^# levels" "$OUTDIR"/chase-*.txt 2>/dev/null || echo "(not run)"
echo "== bank: shared-memory banks inferred, cost per conflict way, \
bandwidth with/without conflicts"
python3 - "$OUTDIR" <<'PY'
import glob, json, sys
for path in sorted(glob.glob(sys.argv[1] + "/*/*-bank.json")):
    r = json.load(open(path))
    res, d = r["results"], r["device"]
    if "inference" not in res:
        print(f"{path.split('/')[-2]}: {d['name']}: status {r['status']} (no inference)")
        continue
    inf = res["inference"]
    print(f"{path.split('/')[-2]}: {d['name']}, timer resolution {d['timer_res_ns']} ns, "
          f"status {r['status']}")
    banks = f"banks {inf['banks']} x {inf['bank_bytes']} B" if inf["detected"] else "no banks"
    print(f"  {banks}: {inf['reason']}")
    for f in res["fits"]:
        print(f"  {f['mode']:10s} {f['width_bytes']:2d} B: {f['base']:8.2f} + "
              f"{f['slope']:7.3f} {f['unit']}/way"
              f"  rms {f['rms_residual']:.3g}  R^2 {f['r2']:.3f}  n {f['n']}")
    for w, b in res["bandwidth"].items():
        fa, sl = b["fastest_stride"], b["slowest_stride"]
        print(f"  {w:>2s} B throughput: stride {fa['stride']} {fa['GBps']:.0f} GB/s"
              f" ({fa['bytes_per_cycle_per_cu']:.1f} B/cycle/SM); stride {sl['stride']}"
              f" ({sl['ways_32x4']}-way) {sl['GBps']:.0f} GB/s")
    for x in res.get("remote", []):  # another SM's shared memory, against the own (stride 1)
        own = x.get("own_stride1", {})
        print(f"  remote {x['mode']:10s} {x['width_bytes']:2d} B cluster {x['cluster']}: "
              f"{x['y']:.1f} {x['unit']}"
              f" {x['GBps']:.0f} GB/s (own: {own.get('y', float('nan')):.1f}, "
              f"{own.get('GBps', float('nan')):.0f} GB/s)")
    for x in res.get("skipped", []):
        print(f"  {x['pattern']} skipped: {x['reason']}")
PY
echo "== l2: plateaus, capacity, partitions, persistence, cold/warm"
python3 - "$OUTDIR" <<'PY'
import glob, json, sys
mib = lambda b: f"{b / 2**20:.1f} MiB"
for path in sorted(glob.glob(sys.argv[1] + "/*/*-l2.json")):
    r = json.load(open(path))
    res, d = r["results"], r["device"]
    print(f"{path.split('/')[-2]}: {d['name']}, {res.get('cache_name')} {mib(d['llc_bytes'])} "
          f"reported, status {r['status']}")
    for k, f in res.get("bandwidth", {}).items():
        if f["verdict"] != "plateaus":
            print(f"  {k:5s} no clear plateau")
            continue
        print(f"  {k:5s} cache {f['cache_GBps']:8.1f} GB/s, "
              f"{f['memory']} {f['memory_GBps']:8.1f} GB/s"
              f" (reached: {f['memory_reached']}), ratio {f['ratio']:.2f}x, "
              f"capacity {mib(f['capacity_bytes'])}"
              f" (falls by {mib(f['fall_at_bytes'])}, 50% hits at {mib(f['half_hit_bytes'])}), "
              f"{f['confidence_word']} confidence")
    p = res.get("partitions")
    if p:
        extra = (f"near {p['near_cycles']:.0f} cycles ({100 * p['near_share']:.0f}%), "
                 f"far {p['far_cycles']:.0f} cycles"
                 if "near_cycles" in p else
                 f"median {p.get('median_cycles', float('nan')):.0f} cycles")
        print(f"  partitions: {p['verdict']}: {extra}; {p['sms_bimodal']} of {p['sms_reached']} "
              f"SMs bimodal;"
              f" partitions {p.get('partitions', '?')} ({p.get('partitions_basis', '-')}); "
              f"sides (SMs) {p.get('sides')}")
        for e in p.get("per_sm", []):
            if e.get("reached"):
                print(f"    SM {e['sm']:3d}: "
                      + ", ".join(f"{m['cycles']:.0f} cycles {100 * m['share']:.0f}%"
                                  for m in e.get("modes", [])))
        for a in p.get("agreement", []):
            print(f"    SM {a['sm_a']} vs SM {a['sm_b']}: "
                  f"same class for {100 * a['same_class_share']:.0f}% of lines")
    q = res.get("persistence")
    if q:
        for c in q["configs"]:
            print(f"  persistence set-aside {mib(c['setaside_bytes']):>10s} "
                  f"(granted {mib(c.get('setaside_granted_bytes', 0))})"
                  f" hitRatio {c['hit_ratio']:.2f}: {c['bw_GBps']:8.1f} GB/s "
                  f"+-{100 * c['ci_rel']:.1f}%")
        if "gain" in q:
            print(f"  persistence gain {q['gain']:.3f}x {q.get('gain_ci')} {q.get('verdict', '')} "
                  f"(hot {mib(q['hot_bytes'])}, {q.get('rounds')} rounds,"
                  f" an empty launch {100 * q.get('launch_rel', float('nan')):.1f}%, "
                  f"timer resolution {100 * q['timer_resolution_rel']:.2f}% of a sample), "
                  f"restored {q['restored']}")
    for s in res.get("skipped", []):
        print(f"  {s['part']}: skipped: {s['reason']}")
    for c in res.get("coldwarm", {}).get("sizes", []):
        print(f"  cold/warm {mib(c['size_bytes']):>10s}: {c['cold_ns'] / 1e3:8.2f} us / "
              f"{c['warm_ns'] / 1e3:8.2f} us a pass = {c['cold_over_warm']:.2f}x"
              f" {c.get('cold_over_warm_ci')} {c.get('verdict', '')}"
              f"{' (launch-dominated)' if c.get('launch_dominated') else ''}")
PY
echo "== copy: largest copy per direction, kind, engine (GB/s, % of PCIe nominal); \
smallest copy (us)"
python3 - "$OUTDIR" <<'PY'
import glob, json, sys
for path in sorted(glob.glob(sys.argv[1] + "/*/*-copy.json")):
    r = json.load(open(path))
    res, d = r["results"], r["device"]
    l = res.get("link", {})
    link = (f"PCIe gen{l['gen']} x{l['width']} (max gen{l['max_gen']} x{l['max_width']}), "
            f"nominal {l['nominal_GBps']:.1f} GB/s per direction"
            if l.get("available") else f"link unknown ({l.get('why')})")
    print(f"{path.split('/')[-2]}: {d['name']}, {link}, "
          f"locality NUMA {r['locality']['numa_nodes']}, status {r['status']}")
    print(f"  host thread: {r['locality'].get('host_binding', '?')}")
    for kind, p in res.get("host_placement", {}).items():
        print(f"  host memory {kind}: {p['binding']}; pages on NUMA {p['pages_numa']}")
    lat = res.get("latency_us", {})
    for k, b in res.get("largest", {}).items():
        pct = f"{b['pct_link']:.1f}%" if "pct_link" in b else "-"
        small = f"{lat[k]['lat_us']:8.2f} us @ {lat[k]['size_bytes']} B" if k in lat else ""
        print(f"  {k:22s} {b['bw_GBps']:9.2f} GB/s {pct:>7s} @ {b['size_bytes'] / 2**20:g} MiB   "
              f"{small}")
    for s in res.get("skipped", []):
        print(f"  skipped {s['direction']} {s['kind']} {s['engine']}: {s['reason']}")
PY
echo "== um: managed memory, largest buffer per test (GB/s); fault cost per stride (us)"
python3 - "$OUTDIR" <<'PY'
import glob, json, sys
for path in sorted(glob.glob(sys.argv[1] + "/*/*-um.json")):
    r = json.load(open(path))
    res, d = r["results"], r["device"]
    print(f"{path.split('/')[-2]}: {d['name']}: {res.get('managed_memory')}, status {r['status']}")
    for k, b in res.get("largest", {}).items():
        print(f"  {k:13s} {b['bw_GBps']:9.2f} GB/s @ {b['size_bytes'] / 2**20:g} MiB")
    for k, f in res.get("fault_us", {}).items():
        fu = f"{f['fault_us']:.2f} us per fault" if "fault_us" in f else "no fault cost"
        print(f"  stride {int(k) // 1024:5d} KiB: {f['host_us']:8.2f} us from the host, "
              f"{f['device_us']:6.3f} resident: {fu}")
    for s in res.get("skipped", []):
        print(f"  skipped {s['test']}: {s['reason']}")
PY
echo "== um touches: fault-d2h timed by one load a 4 KiB page, against the check of every word"
python3 - "$OUTDIR" <<'PY'
import glob, json, sys
for path in sorted(glob.glob(sys.argv[1] + "/cuda-touch*/*-um.json")):
    r = json.load(open(path))
    for p in r["points"]:
        m, t = p["metrics"], p["time_ns"]
        print(f"{path.split('/')[-2]}: {p['params']['size_bytes'] / 2**20:6g} MiB, "
              f"{p['params']['host_threads']} host thread(s): "
              f"touches {m['bw_GBps']['median']:7.2f} GB/s "
              f"[{m['bw_GBps']['ci_lo']:.2f}, {m['bw_GBps']['ci_hi']:.2f}], "
              f"check of every word "
              f"{m.get('host_resident_GBps', {}).get('median', float('nan')):6.2f} GB/s, "
              f"n {t['n']}, converged {t['converged']}, {p['extra']['verified']}")
PY
echo "== quick profile (chase, loaded, um): unconverged points, and the table's marked values"
python3 - "$OUTDIR" <<'PY'
import glob, json, sys
for path in sorted(glob.glob(sys.argv[1] + "/quick-converge/*/*/*.json")):
    if path.endswith("run.json"):
        continue
    r = json.load(open(path))
    bad = [p for p in r["points"] if not p.get("time_ns", {}).get("converged", True)]
    print(f"{r['benchmark']}: {len(bad)} of {len(r['points'])} points not converged "
          f"(time cap {r['measurement']['time_cap_s']} s, "
          f"max samples {r['measurement']['max_samples']})")
    for p in bad[:16]:
        t = p["time_ns"]
        print(f"  {json.dumps(p['params'], separators=(',', ':'))[:110]}: n {t['n']}, "
              f"ci {100 * t['ci_rel']:.1f}%")
PY
for d in "$OUTDIR"/quick-converge/*/*/; do
    [ -d "$d" ] && bin/gmb table "$d" 2>/dev/null | grep -E "†|^\| Metric" || true
    [ -d "$d" ] && grep -h "wall_s" "$d/run.json" | head -1
done
echo "== loaded: latency under load (idle, at the most bandwidth, where it doubles)"
grep -h "^# loaded" "$OUTDIR"/loaded-*.txt 2>/dev/null || echo "(not run)"
echo "== access: access granularity (stride curve), misaligned reads, \
random blocks read and written"
grep -h "^# access" "$OUTDIR"/access-*.txt 2>/dev/null || echo "(not run)"
python3 - "$OUTDIR" <<'PY'
import glob, json, sys
nan = float("nan")
for path in sorted(glob.glob(sys.argv[1] + "/*/*-access.json")):
    r = json.load(open(path))
    for what, verb in (("random", "read"), ("random_write", "written")):
        # the same buffer's reads beside the writes (when both ran): writes of B / reads of B
        rd = {(e["size_bytes"], b["block_bytes"]): b.get("bw_GBps")
              for e in r["results"].get("random", []) for b in e["blocks"]}
        for e in r["results"].get(what, []):
            c, s4 = e.get("contiguous_GBps"), e.get("stride4_GBps")
            cont = f"{c:.1f} GB/s" if c else "failed"
            beside = f" (stride 4: {s4:.1f} GB/s, {100 * c / s4:.0f}%)" if c and s4 else ""
            full = e.get("full_bw_block_bytes")
            print(f"{path.split('/')[-2]}: {r['device']['name']}: random blocks {verb} in "
                  f"{e['size_bytes'] / 2**20:g} MiB "
                  f"({e['where']}): contiguous {cont}{beside}; full bandwidth "
                  f"{f'from {full} B' if full else 'from no block measured'}; status {r['status']}")
            # the in-order reference of each access width (4 B words, 8 B uint2, 16 B uint4)
            print("  references: " + ", ".join(f"{x['width_bytes']} B accesses "
                                              f"{x['contiguous_GBps']:.1f} GB/s"
                                              if x.get("contiguous_GBps") else
                                              f"{x['width_bytes']} B accesses failed"
                                              for x in e.get("references", [])))
            for b in e["blocks"]:
                rb = rd.get((e["size_bytes"], b["block_bytes"])) if what == "random_write" else None
                vs = f"  {100 * b['bw_GBps'] / rb:5.1f}% of reads" if rb and "bw_GBps" in b else ""
                print(f"  {b['block_bytes']:6d} B {b.get('bw_GBps', nan):9.1f} GB/s "
                      f"{100 * b.get('of_contiguous', nan):6.1f}% "
                      f"of contiguous ({b.get('reference_width_bytes', 4):2d} B) "
                      f"{b.get('blocks_G_per_s', nan):9.4f} G blocks/s  {b['where']}{vs}")
PY
echo "== atomic: distinct addresses against one address"
grep -h "^# atomic" "$OUTDIR"/atomic-*.txt 2>/dev/null || echo "(not run)"
echo "== overlap: copies beside kernels, the ridge point"
grep -h "^# overlap" "$OUTDIR"/overlap-*.txt 2>/dev/null || echo "(not run)"
echo "== capacity: largest allocation, total, allocation time, exhaustion"
grep -h "^# capacity" "$OUTDIR"/capacity-*.txt 2>/dev/null || echo "(not run)"
echo "== counters in process (CUPTI): stream's DRAM bytes against its count, l2's hit rate"
grep -h "^# counters" "$OUTDIR"/stream-cupti-cuda.txt "$OUTDIR"/l2-cupti-cuda.txt 2>/dev/null ||
    echo "(not run)"
python3 - "$OUTDIR/cuda-cupti" <<'PY'
import glob, json, sys
nan = float("nan")
for path in sorted(glob.glob(sys.argv[1] + "/*.json")):
    r = json.load(open(path))
    m = r.get("measurement", {}).get("counters") or {}
    print(f"{r.get('benchmark')}: counters {'available' if m.get('available') else 'none'}"
          f" ({m.get('why') or m.get('source', '')})")
    for p in r.get("points", []):
        q, cn = p["params"], p.get("counters") or {}
        if not isinstance(cn, dict) or cn.get("dram_read_bytes") is None:
            continue
        print(f"  {q.get('kernel', q.get('part'))} {q.get('size_bytes', 0) / 2**20:6.0f} MiB: "
              f"DRAM read {cn.get('dram_read_bytes', 0) / 2**20:9.1f} MiB, written "
              f"{cn.get('dram_write_bytes', 0) / 2**20:9.1f} MiB, "
              f"{cn.get('dram_throughput_pct') or nan:.3g}% of peak, "
              f"L2 hit {cn.get('l2_hit_pct') or nan:.3g}%")
PY
echo "== stream --energy: board power and energy per bit (NVML)"
grep -h "^# energy" "$OUTDIR"/stream-energy-cuda.txt 2>/dev/null || echo "(not run)"
echo "== stream: bytes counted against bytes DRAM moved (Nsight Compute counters, 512 MiB an array)"
python3 - "$OUTDIR/ncu.csv" <<'PY'
import csv, os, re, statistics, sys
f = sys.argv[1]
if not os.path.exists(f):
    print("(not run)")
    sys.exit(0)
rows = list(csv.reader(l for l in open(f, errors="replace") if l.startswith('"')))
if not rows:
    print("(no counters: " + " ".join(open(f, errors="replace").read().split()[-30:]) + ")")
    sys.exit(0)
head, got = rows[0], {}
k, m, v = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value")
for r in rows[1:]:
    name = re.search(r"stream_(read|fill|copy|triad)", r[k])
    if name:
        scale = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9}.get(
            r[head.index("Metric Unit")], 1)
        got.setdefault((name.group(1), r[m]), []).append(scale * float(r[v].replace(",", "")))
size = 512 * 2**20  # bytes an array; the kernels' reads and writes in arrays
want = {"read": (1, 0), "fill": (0, 1), "copy": (1, 1), "triad": (2, 1)}
for kern, (nr, nw) in want.items():
    rd, wr = got.get((kern, "dram__bytes_read.sum")), got.get((kern, "dram__bytes_write.sum"))
    if not rd or not wr:
        print(f"  {kern:6s} no counters")
        continue
    rd, wr = statistics.median(rd), statistics.median(wr)
    fmt = lambda b, n: (f"{b / (n * size):.3f}x of the {n * size / 2**20:g} MiB counted" if n
                        else f"{b / 2**20:.1f} MiB (none counted)")
    print(f"  {kern:6s} DRAM read {fmt(rd, nr)}; written {fmt(wr, nw)}  "
          f"({len(got[(kern, 'dram__bytes_read.sum')])} launches)")
PY
echo "== l2: L2 hit rate of gmb-l2's sets \
(Nsight Compute, lts__t_sector_hit_rate.pct, the last 3 launches)"
python3 - "$OUTDIR" <<'PY'
import csv, glob, os, re, statistics, sys
out = sys.argv[1]
files = sorted(glob.glob(os.path.join(out, "ncu-l2-*.csv")),
               key=lambda f: (f.split("-")[-2], int(re.sub(r"\D", "", f.split("-")[-1]))))
if not files:
    print("(not run)")
for f in files:
    part, size = os.path.basename(f)[7:-4].split("-")
    rows = list(csv.reader(l for l in open(f, errors="replace") if l.startswith('"')))
    if not rows:
        print(f"  {part:5s} {size:>4s} MiB: no counters "
              f"({' '.join(open(f, errors='replace').read().split()[-12:])})")
        continue
    head = rows[0]
    m, v = head.index("Metric Name"), head.index("Metric Value")
    got = {}
    for r in rows[1:]:
        got.setdefault(r[m], []).append(float(r[v].replace(",", "")))
    hr = got.get("lts__t_sector_hit_rate.pct", [])[-3:]
    rd = got.get("dram__bytes_read.sum", [])[-3:]
    wr = got.get("dram__bytes_write.sum", [])[-3:]
    sec = got.get("lts__t_sectors.sum", [])[-3:]
    if not hr:
        print(f"  {part:5s} {size:>4s} MiB: no hit rate")
        continue
    fmt = lambda x: f"{statistics.median(x) / 2**20:.0f} MiB" if x else "-"
    print(f"  {part:5s} {size:>4s} MiB: L2 hit rate {statistics.median(hr):5.1f}% "
          f"(launches {len(got['lts__t_sector_hit_rate.pct'])}); "
          f"L2 sectors {fmt([32 * x for x in sec])}, DRAM read {fmt(rd)}, "
          f"written {fmt(wr)} a launch")
PY
echo "== copy: SM bidir, split kernel against two streams (GB/s summed; nvbandwidth's figure)"
grep -hE "^bidir +mapped +sm" "$OUTDIR"/copy-bidir-cuda.txt 2>/dev/null || echo "(not run)"
python3 - "$OUTDIR" <<'PY'
import glob, json, sys
for path in sorted(glob.glob(sys.argv[1] + "/cuda-bidir-*/*-copy.json")):
    for p in json.load(open(path))["points"]:
        m = p["metrics"]
        print(f"  {p['params'].get('sm_bidir', '?'):8s} {p['params']['size_bytes'] >> 20:5d} MiB: "
              f"{m['bw_GBps']['median']:.1f} GB/s summed"
              + (f", per direction {m['per_direction_GBps']['median']:.1f}"
                 if "per_direction_GBps" in m else ""))
PY
echo "== l2: the L1s' aggregate bandwidth (gmb-l2 --parts l1,read) and the level table"
grep -h "^# summary" "$OUTDIR"/l2-l1-cuda.txt 2>/dev/null || echo "(not run)"
[ -d "$OUTDIR/cuda-l2l1" ] && bin/gmb table --levels "$OUTDIR/cuda-l2l1" 2>&1 | grep '^|' || true
echo "== l2: partitions, persistence, cold/warm (gmb-l2 --parts partitions,persistence,coldwarm)"
grep -h "^# summary" "$OUTDIR"/l2-more-cuda.txt 2>/dev/null || echo "(not run)"
echo "== the issues' GPU targets (H100/H200 class), from the CUDA runs above"
python3 - "$OUTDIR" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
steps = {}
if os.path.exists(out + "/steps.tsv"):
    for line in open(out + "/steps.tsv"):
        n, rc, sec = line.rstrip("\n").split("\t")
        steps[n] = (int(rc), float(sec))
def verdict(ok):
    return "met" if ok else "MISSED"
def rec(sub, bench):
    f = sorted(glob.glob(f"{out}/{sub}/*-{bench}.json"))
    return json.load(open(f[-1])) if f else None
r = rec("cuda", "stream")
if r:
    best = r["results"].get("best", {})
    if r["status"] != "ok":
        print(f"issue 2: the stream record says {r['status']}: "
              f"its figures are from the points it finished")
    for k, t in (("read", 95), ("triad", 90), ("copy", 84)):
        b = best.get(k)
        if b and "pct_peak" in b:
            print(f"issue 2: {k:5s} {b['bw_GBps']:8.1f} GB/s = {b['pct_peak']:5.1f}% of "
                  f"{r['device']['peak_bw_GBps']:.0f} GB/s"
                  f" (target >= {t}%, at {b['size_bytes'] / 2**30:g} GiB, tier {b.get('tier')}): "
                  f"{verdict(b['pct_peak'] >= t and b['dram'])}")
    if "stream-cuda" in steps:
        rc, sec = steps['stream-cuda']
        print(f"issue 2: default stream sweep {sec:.1f} s, exit {rc} (target < 20 s): "
              f"{verdict(rc == 0 and sec < 20)}")
r = rec("cuda", "chase")
if r:
    want = {"L1": (30, 40), "L2": (200, 300), "L2 near": (200, 300), "DRAM": (550, 800)}
    if r["status"] != "ok":
        print(f"issue 3: the chase record says {r['status']}: levels only where it got to them")
    for cv in r["results"].get("levels", []):
        if cv["mode"] != "random" or cv["space"] != "global":
            continue
        for lv in cv["levels"]:
            lo_hi = want.get(lv["name"])
            cyc = lv.get("lat_cycles")
            if lo_hi and cyc is not None:
                print(f"issue 3: {lv['name']:8s} {cyc:6.0f} cycles, {lv['lat_ns']:7.1f} ns, "
                      f"up to {lv['capacity_bytes'] / 2**20:.3g} MiB"
                      f" (expected {lo_hi[0]}-{lo_hi[1]}): {verdict(lo_hi[0] <= cyc <= lo_hi[1])}")
    cy = r["results"].get("cycles", {})
    if "measured_MHz" in cy:  # the clock the cycles were counted at, against NVML's
        print(f"issue 3: the chase's cycles over its ns: {cy['measured_MHz']:.0f} MHz; "
              f"NVML's SM clock at its points' ends:"
              f" {cy.get('nvml_MHz', float('nan')):.0f} MHz; "
              f"the device's nominal {cy.get('clock_MHz')} MHz")
    p = rec("cuda-ptr", "chase")
    for cv in (p or {}).get("results", {}).get("levels", []):
        if cv["mode"] == "random" and cv["space"] == "global":
            print("issue 3, --pointers (no address arithmetic): " + ", ".join(
                f"{lv['name']} {lv.get('lat_cycles', float('nan')):.0f} cycles"
                for lv in cv["levels"]))
    if "chase-cuda" in steps:
        rc, sec = steps['chase-cuda']
        print(f"issue 3: default chase sweep {sec:.1f} s, exit {rc} (target <= 30 s): "
              f"{verdict(rc == 0 and sec <= 30)}")
for bench in ("stream", "chase"):  # were the targets' numbers taken at full clocks, alone? (NVML)
    r = rec("cuda", bench)
    b = (r or {}).get("busy_before", {})
    if b.get("available"):
        print(f"{bench}: before the run {b['compute_processes']} other compute processes, "
              f"kernels {b['gpu_util_pct']}% busy")
    d = (r or {}).get("clocks", {}).get("during")
    if d:
        ms = lambda k: "?" if d.get(k) is None else f"{d[k]:.0f}"
        print(f"{bench}: {d.get('points_capped')} of {d.get('points_clocked')} points "
              f"held below the application clocks"
              f" for over 1% of their time; power {ms('power_capped_ms')} ms, "
              f"thermal {ms('thermal_capped_ms')} ms"
              f" in the {d['wall_s']:.1f} s run; NVML queries {d.get('points_nvml_ms', 0):.1f} ms "
              f"{d.get('points_stopped', '')}")
m = sorted(glob.glob(f"{out}/suite/*/*/run.json"))
if m:
    j = json.load(open(m[-1]))
    print(f"issue 6: quick gmb run {j.get('wall_s', 0):.1f} s, status {j.get('status')} "
          f"(target <= 90 s): {verdict(j.get('wall_s', 1e9) <= 90)}")
PY
echo "== A/B: the same points, B against A (Mann-Whitney on the raw samples)"
ab() { # A-dir B-dir bench what [rows: an ERE on the point and metric; default all]
    local a b f
    a=$(ls "$OUTDIR/$1"/*-"$3".json 2>/dev/null | tail -1)
    b=$(ls "$OUTDIR/$2"/*-"$3".json 2>/dev/null | tail -1)
    [ -n "$a" ] && [ -n "$b" ] || return 0
    mkdir -p "$OUTDIR/ab"
    f=$OUTDIR/ab/$1-$2-$3.txt # every row, packed with the rest
    echo "-- $4 (A: $1, B: $2; every row in ab/${f##*/})"
    bin/gmb compare "$a" "$b" >"$f" 2>&1
    awk -v re="${5:-.}" 'NR == 3 || (NR > 3 && $0 ~ re) || /metrics of|nothing to compare/' "$f"
}
ab cuda-asm cuda-l2pf stream "the L2 256-byte prefetch hint, inline-PTX loads both" ' bw_GBps '
ab cuda cuda-gs1024 stream "1024 work-items per group (A: the default 256)" ' bw_GBps '
ab cuda cuda-ptr chase "address chains, no arithmetic between loads (A: index chains)" \
    ' size=(1|2|4|8|16|32|64|128|256|512) [KMG]iB .* lat_cycles '
ab opencl opencl-ptr chase "the same on OpenCL (shared virtual memory)" \
    'random global +size=(1|2|4|8|16|32|64|128|256|512) [KMG]iB .* lat_ns '
ab cuda-gate0 cuda-gate1 copy "the stream held behind a gate until the copies are enqueued" \
    ' lat_us '
ab cuda-gate0 cuda-gate1 l2 "the same for one-pass cold/warm samples"
grep -h "verification failed" "$OUTDIR"/*.txt && status=1
echo "== gmb run (quick profile): manifest and table"
if [ -n "$rundir" ] && [ -f "$rundir/run.json" ]; then
    python3 - "$rundir/run.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
print(f"profile {m.get('profile')}, {m.get('wall_s', 0):.1f} s in all, "
      f"interrupted {m.get('interrupted')}")
for p in m["programs"]:
    print(f"  {p['name']:7s} {p['status']:20s} {p.get('wall_s') or 0:6.1f} s  "
          f"{p.get('points', '-')} points")
PY
    if command -v gnuplot >/dev/null; then
        bin/gmb plot "$rundir" >/dev/null || status=1
    else
        echo "gnuplot missing here: draw the figures elsewhere with gmb plot on the records"
    fi
    bin/gmb table "$rundir" --format md | tee "$OUTDIR/suite-table.md" || status=1
    bin/gmb table "$rundir" --levels --format md | tee "$OUTDIR/suite-levels.md" || status=1
    bin/gmb report "$rundir" >/dev/null || status=1
    # the quantities several programs measured, side by side (the report's cross-checks)
    sed -n '/^## Cross-checks/,/^## Figures/p' "$rundir/report.md" | grep '^|' || true
else
    echo "no gmb run directory"
    [ -z "${GMB_CHECK_ONLY:-}" ] && status=1
fi
# every program declares its headline figures (record key "headlines"); the table read from
# them must hold every row the extractors read on a GPU too, where the levels have the GPU's
# names (L1, L2, TLB levels) that PoCL never gives: the unconverged marks aside, which the
# extractors of some programs never set; rows only the figures have (chase's SM clocks,
# bank's latency) are listed
echo "== table: from the headline figures against the extractors (each record directory)"
for d in "$OUTDIR"/*/ "$OUTDIR"/suite/*/*/; do
    ls "$d"*.json >/dev/null 2>&1 || continue
    bin/gmb table "$d" 2>/dev/null | grep '^|' | sed 's/ †//g' | sort >"$OUTDIR/hl-new.txt"
    GMB_TABLE_READER=legacy bin/gmb table "$d" 2>/dev/null | grep '^|' | sed 's/ †//g' |
        sort >"$OUTDIR/hl-old.txt"
    lost=$(comm -13 "$OUTDIR/hl-new.txt" "$OUTDIR/hl-old.txt")
    if [ -z "$lost" ]; then
        echo "  $(basename "$d"): every row the same ($(wc -l <"$OUTDIR/hl-old.txt") rows)"
    else
        status=1
        echo "  $(basename "$d"): DIFFERENT: the extractors' rows the figures lack or change:"
        printf '%s\n' "$lost" | head -20
    fi
    comm -23 "$OUTDIR/hl-new.txt" "$OUTDIR/hl-old.txt" | sed 's/^/  only from the figures: /'
    # the level view: every level the mapping gave, the same (the figures' levels)
    bin/gmb table --levels "$d" 2>/dev/null | grep '^|' | sed 's/ †//g' | sort >"$OUTDIR/hl-new.txt"
    GMB_TABLE_READER=legacy bin/gmb table --levels "$d" 2>/dev/null | grep '^|' |
        sed 's/ †//g' | sort >"$OUTDIR/hl-old.txt"
    lost=$(comm -13 "$OUTDIR/hl-new.txt" "$OUTDIR/hl-old.txt")
    if [ -n "$lost" ]; then
        status=1
        echo "  $(basename "$d"): the level view's rows the figures lack or change:"
        printf '%s\n' "$lost" | head -10
    fi
done
rm -f "$OUTDIR/hl-new.txt" "$OUTDIR/hl-old.txt"
printf 'total wall time %s s; status %d\n' "$(since "$t_start")" "$status"
# what the budget left out, ready for a second call (the build is kept between calls)
[ -n "${UNRUN:-}" ] &&
    echo "not run for the budget: GMB_CHECK_ONLY=\"$UNRUN\" bash tests/gpu-check.sh"
pack
exit $status
