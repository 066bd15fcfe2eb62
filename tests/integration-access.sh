# integration-access.sh - gmb-access end to end on OpenCL/PoCL: the three patterns over two
# buffers verified and recorded (sums recomputed on the host, in full and sampled), the
# granularity verdict and misalignment summary (the worst offset selected by the sweep, its
# ratio and test from a confirmation measured anew), random blocks (their contiguous
# reference, shares and the block of full bandwidth), random blocks written (random-write: not
# in the default; every word read back and checked, the buffer filled anew for what follows),
# table rows and figures, planted errors (in the sweep, in a confirmation, in the random
# pattern, in a random-write read-back), bad input, CUDA without a GPU. CPU numbers are never
# asserted.
AC="$PWD/$BIN/gmb-access"
if ! have_opencl; then
    skip "$TAG access integration: no OpenCL device (install pocl-opencl-icd)"
else
    expect "gmb-access --help" 0 "$AC" --help && check "access help explains the granularity" \
        grep -q "the granularity the memory system fetches" "$T/out" &&
        check "access help explains random blocks" grep -q \
            "the blocks land at random, with replacement" "$T/out" &&
        check "access help explains random writes and their read-back" bash -c \
            "grep -q '^random-write (not run by default' '$T/out' &&
             grep -q 'buffer back after the timed launches, once per point, every word' '$T/out'"
    check "access help: bandwidth counts every pass's bytes (reads and writes)" bash -c \
        "test \$(grep -c '4 bytes x \(reads\|writes\) x passes' '$T/out') = 3 &&
         ! grep -q '4 bytes per \(read\|write\) /' '$T/out'"
    expect "gmb list (access)" 0 "$G" list &&
        check "gmb list names access" grep -q "^access " "$T/out"

    # --- every pattern, two buffers: 6 strides + 4 offsets each and 2 confirmations, the
    # contiguous references (words for 4-byte blocks, uint4 for the rest) and 4 random block
    # sizes; every point verified ------------------------------------------------------------
    if expect "access: strides, offsets and random blocks over two buffers" 0 "$AC" "${FAST[@]}" \
        --sizes 256KiB,4MiB --strides 4:128:x2 --offsets 0,4,32,124 --blocks 4,32,256,4096 \
        --out "$T/acc"; then
        rec=$(ls "$T"/acc/*-access.json)
        check "access: 36 verified rows" test "$(grep -cE ' full *$' "$T/out")" = 36
        check "access: record validates" "$VALIDATE" "$SCHEMA" "$rec"
        check "access: random-write is not in the default patterns (no write point, an empty \
entry)" rec fields "$rec" 'options.patterns=["stride", "offset", "random"]' \
            results.random_write=[]
        check "access: no random-write point by default" rec points-count "$rec" 0 \
            params.pattern=random-write
        check "access: 36 points, every one verified in full (confirmations too), step 1" \
            rec points-count "$rec" 36 extra.verified=full extra.verify_step=1
        check "access: reads counted as the pattern makes them, bandwidth 4 B a read / median \
time, an odd number of passes a launch (an even one could hide a wrong sum)" \
            rec access-reads "$rec"
        check "access: each granularity entry counts the points it used and left out" \
            rec access-granularity-points "$rec" 6 6
        check "access: a granularity verdict per buffer" rec access-granularity-verdicts "$rec" 2
        # the sweep selects: its aligned and lowest misaligned bandwidths, as its points have
        # them
        check "access: misalignment per buffer, the sweep's worst offset and figures" \
            rec access-misalignment-sweep "$rec" 2 4,32,124
        # the confirmation estimates: two points of its own per buffer (aligned, then the worst
        # offset), keyed apart from the sweep's, and the ratio and medians are theirs
        check "access: confirmation points, aligned then worst, pass confirm" \
            rec access-confirm-points "$rec" 2
        # the two confirmations measured against each other, their samples in turn (a drift
        # falls on both alike): each sample's index among the pair's launches, recorded
        check "access: the confirmations' samples interleaved (aligned, worst, aligned, ...), \
the sweep's not" rec access-confirm-interleaved "$rec" 2
        check "access: every point's params (less reads, reps) unique" \
            rec access-params-unique "$rec" reads reps
        check "access: confirm medians are the confirmation points'" \
            rec access-confirm-medians "$rec" 2
        check "access: sweep_worst_over_aligned = the sweep's worst / aligned, apart from the \
confirmation's" rec access-sweep-ratio "$rec" 2
        check "access: worst_over_aligned = confirm worst / aligned" \
            rec access-confirm-ratio "$rec" 2
        check "access: p_value in [0, 1], significant = p < 0.05 and the CIs disjoint" \
            rec access-confirm-significance "$rec" 2
        check "access: the p-value is the Mann-Whitney test of the confirmations' sample \
bandwidths" rec access-confirm-mann-whitney "$rec" 2
        check "access: the summary printed and recorded" grep -qF \
            "# access: $(json "$rec" "r['results']['summary']")" "$T/out"
        check "access: the summary gives each confirmed ratio and whether it is significant" \
            rec access-summary-misalignment "$rec" 2
        # random blocks: per buffer the contiguous reference (the same kernel, blocks in
        # order) first, then each block size; the results entry is made of these points
        check "access: random points per buffer, the contiguous references first (one a width: \
4 B words, 16 B uint4 from 32-byte blocks)" rec access-random-points "$rec" \
            '[["in-order", 4, 4], ["in-order", 32, 16], ["random", 4, 4], ["random", 32, 16],
              ["random", 256, 16], ["random", 4096, 16]]' 262144 4194304
        check "access: random blocks a second = bandwidth / block size" \
            rec access-blocks-rate "$rec"
        check "access: random pass touches the sectors of the blocks it is expected to read" \
            rec access-random-touched "$rec"
        check "access: results.random per buffer: the points' medians, shares of contiguous, \
stride 4 beside" rec access-random-results "$rec" 2
        check "access: full bandwidth from the first block every larger one keeps within 10%" \
            rec access-full-bw-block "$rec" random 2
        check "access: the summary gives each buffer's random shares and full-bandwidth block" \
            rec access-summary-random "$rec" 2
        if command -v gnuplot >/dev/null; then
            expect "access: figures" 0 "$G" plot "$T/acc" --out "$T/accfig" &&
                check "access: stride, offset and random figures" \
                    test -s "$T/accfig/access-stride.png" -a \
                    -s "$T/accfig/access-offset.png" -a -s "$T/accfig/access-random.png"
        fi
    fi
    # --- random blocks alone, the default blocks (4 .. 4096 B): no stride point, so no
    # stride-4 figure beside; the figure drawn from such a record and with another run -------
    if expect "access: random blocks alone, default blocks, two buffers" 0 "$AC" "${FAST[@]}" \
        --sizes 64KiB,1MiB --patterns random --out "$T/rnd"; then
        rec=$(ls "$T"/rnd/*-access.json)
        check "access random: record validates" "$VALIDATE" "$SCHEMA" "$rec"
        check "access random: 2 x 14 points (3 references, 11 blocks), each verified in full, \
the default blocks" rec access-random-alone "$rec" 28 4,8,16,32,64,128,256,512,1024,2048,4096
        check "access random: no stride pattern, no stride-4 figure in the entry" \
            rec access-random-no-stride "$rec" 2
        if command -v gnuplot >/dev/null; then
            rm -rf "$T/rndfig"
            expect "access random: figures, one run and two" 0 "$G" plot "$T/rnd" "$T/acc" \
                --out "$T/rndfig" &&
                check "access random: the random figure drawn" \
                    test -s "$T/rndfig/access-random.png"
            rm -rf "$T/rndfig1"
            expect "access random: figure of a random-only record" 0 "$G" plot "$T/rnd" \
                --out "$T/rndfig1" &&
                check "access random: random figure only (no stride, no offset, no writes)" \
                    test -s "$T/rndfig1/access-random.png" \
                    -a ! -e "$T/rndfig1/access-stride.png" -a ! -e "$T/rndfig1/access-offset.png" \
                    -a ! -e "$T/rndfig1/access-random-write.png"
        fi
    fi
    # --- random-write: every pattern over two buffers (all), the writes last in each; every
    # word of each write point read back and checked, the buffer filled anew before the next
    # point (the next write point, the second buffer's reads) -----------------------------
    if expect "access random-write: all patterns, two buffers" 0 "$AC" "${FAST[@]}" \
        --sizes 256KiB,4MiB --strides 4,8 --offsets 0,4 --blocks 4,32,256,4096 --patterns all \
        --out "$T/rw"; then
        rec=$(ls "$T"/rw/*-access.json)
        check "access random-write: record validates" "$VALIDATE" "$SCHEMA" "$rec"
        check "access random-write: 36 points, every one verified in full" rec points-count "$rec" \
            36 extra.verified=full
        check "access random-write: no other point" rec points-count "$rec" 36
        check "access random-write: per buffer the in-order references first (4 B, 16 B), then \
each block, after the reads" rec access-last-points "$rec" \
            params.pattern,params.placement,params.block_bytes,extra.vector_bytes \
            '[["random-write", "in-order", 4, 4], ["random-write", "in-order", 32, 16],
              ["random-write", "random", 4, 4], ["random-write", "random", 32, 16],
              ["random-write", "random", 256, 16], ["random-write", "random", 4096, 16]]' \
            262144 4194304
        check "access random-write: the second buffer's reads (after the first's writes) \
verified" rec points-list "$rec" params.pattern,extra.verified \
            '[["stride", "full"], ["stride", "full"], ["offset", "full"], ["offset", "full"],
              ["offset", "full"], ["offset", "full"], ["random", "full"], ["random", "full"],
              ["random", "full"], ["random", "full"], ["random", "full"], ["random", "full"]]' \
            params.size_bytes=4194304 params.pattern!=random-write
        check "access random-write: writes = the whole blocks' words, bandwidth = 4 B per write \
/ median time, blocks/s = bw / B" rec access-write-rates "$rec"
        # the words written: the blocks the pass picks, recomputed here from the hash (a port
        # of gmb_hash and gmb_block_pick, the run's seed 1); every other word of the buffer kept
        check "access random-write: every word checked: the picked blocks' words written, the \
rest kept" rec access-write-words "$rec" 12
        check "access random-write: results.random_write per buffer: the points' medians, \
shares of contiguous writes" rec access-write-results "$rec" 262144,4194304 4,32,256,4096 2
        check "access random-write: the summary gives each buffer's write shares and \
full-bandwidth block" rec access-summary-writes "$rec" 2 "262144=256 KiB" "4194304=4 MiB"
        check "access random-write: rows printed as in-order-write and random-write" test \
            "$(grep -cE '^(in-order-write|random-write) ' "$T/out")" = 12
        if command -v gnuplot >/dev/null; then
            rm -rf "$T/rwfig"
            expect "access random-write: figures, this run and two runs" 0 "$G" plot "$T/rw" \
                --out "$T/rwfig" &&
                check "access random-write: the write figure beside the others" \
                    test -s "$T/rwfig/access-random-write.png" \
                    -a -s "$T/rwfig/access-random.png" -a -s "$T/rwfig/access-stride.png"
            rm -rf "$T/rwfig2"
            expect "access random-write: figures of two runs" 0 "$G" plot "$T/rw" "$T/acc" \
                --out "$T/rwfig2" &&
                check "access random-write: the write figure of two runs" \
                    test -s "$T/rwfig2/access-random-write.png"
        fi
        # the table: random 32-byte writes of the largest DRAM buffer (renamed so: a CPU's
        # buffers are cache-resident); none from a buffer that is not DRAM
        mkdir -p "$T/rwt" "$T/rwc"
        /usr/bin/python3 - "$rec" "$T/rwt/x-access.json" "$T/rwc/x-access.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r.pop("headlines", None)  # a record of before them: the extractors read these edits
w = r["results"]["random_write"]
for e, where, bw, share in ((w[0], "dram", 999.0, 0.99), (w[1], "dram", 345.0, 0.12)):
    e["where"] = where
    b32 = [b for b in e["blocks"] if b["block_bytes"] == 32][0]
    b32.update(bw_GBps=bw, bw_ci_lo_GBps=bw - 1, bw_ci_hi_GBps=bw + 1, of_contiguous=share)
json.dump(r, open(sys.argv[2], "w"))
w[1]["where"] = "transition"  # the largest buffer not in DRAM: the smaller DRAM one's
w[0]["where"] = "cache"
json.dump(r, open(sys.argv[3], "w"))
PY
        expect "access random-write: table" 0 "$G" table "$T/rwt" &&
            check "access random-write: table rows (the larger DRAM buffer's: 345 GB/s, 12%)" \
                bash -c "grep -q \
'^| Random 32-byte writes (DRAM) | GB/s | 345.0 \\[344.0, 346.0\\] |' '$T/out' &&
                 grep -q '^| Random 32-byte writes, of contiguous (DRAM) | % | 12.00 |' '$T/out'"
        expect "access random-write: table of writes in no DRAM buffer" 0 "$G" table "$T/rwc" &&
            check "access random-write: no write row from a buffer that is not DRAM" \
                bash -c "! grep -q 'writes' '$T/out'"
    fi
    # a buffer of 16 Ki + 1 words: 4-byte blocks make 16385 writes, not a whole number of
    # rounds of eight per work-item (the kernel's last loop writes some); 64-byte blocks leave
    # the last word unwritten, and it is checked too. A buffer over one read-back chunk (64 MiB)
    expect "access random-write: words past the last whole block kept and checked" 0 "$AC" \
        "${FAST[@]}" --sizes 65540 --patterns random-write --blocks 4,64 --out "$T/rwodd" &&
        odd=$(ls "$T"/rwodd/*-access.json)
        check "access random-write: 16385 words checked (the in-order ones: all written, or all \
but the last)" rec access-write-words-checked "$odd" \
            '[["in-order", 16385, 16385, 0], ["in-order", 16384, 16385, 1],
              ["random", 16385, 16385, true], ["random", 16384, 16385, true]]'
    expect "access random-write: 72 MiB (two read-back chunks), every word" 0 "$AC" "${FAST[@]}" \
        --sizes 72MiB --patterns random-write --blocks 4096 --out "$T/rwbig" &&
        check "access random-write: 72 MiB verified in full, every word counted" \
            rec access-words-verified "$(ls "$T"/rwbig/*-access.json)" 2 18874368
    # one block of the whole buffer (every read of it, placed at the only place)
    expect "access random: a 64 KiB block in a 64 KiB buffer, verified" 0 "$AC" "${FAST[@]}" \
        --sizes 64KiB --patterns random --blocks 4,64KiB --out "$T/rnd1" &&
        check "access random: one block, all its reads, verified in full" rec points-list \
            "$(ls "$T"/rnd1/*-access.json)" params.block_bytes,params.reads,extra.verified \
            '[[4, 16384, "full"], [65536, 16384, "full"], [4, 16384, "full"],
              [65536, 16384, "full"]]'
    # --- the three vector widths: 4-byte blocks read (written) as words, 8-byte as uint2, 16
    # bytes and more as uint4, each block's share against the in-order reference of its own
    # width (one per width, the smallest block of it); the summary's contiguous bandwidth the
    # full block's width's; every point verified (the writes' values read back) -------------
    if expect "access random: three vector widths, reads and writes" 0 "$AC" "${FAST[@]}" \
        --sizes 64KiB --patterns random,random-write --blocks 4,8,16,64 --out "$T/vw"; then
        check "access random: one reference a width, each block's share against its own \
width's" rec access-random-widths "$(ls "$T"/vw/*-access.json)" 4,8,16 4,8,16,64
    fi
    # --- reads beyond 32 Mi: sums of a sample of the work-items recomputed -----------------
    if expect "access: a buffer of 160 MiB, sampled check" 0 "$AC" "${FAST[@]}" --sizes 160MiB \
        --strides 4 --patterns stride --out "$T/big"; then
        check "access: verified by a sample" rec fields "$(ls "$T"/big/*-access.json)" \
            points.0.extra.verified=sampled
        # an odd step: the work-items checked fall in every residue mod any power of two (an
        # even one would leave out every odd work-item's reads)
        check "access: the sample's step is odd and above 1" \
            rec access-steps-odd "$(ls "$T"/big/*-access.json)" 1 above=1
    fi
    expect "access: planted error, sampled check, exits 1" 1 "$AC" "${FAST[@]}" --sizes 160MiB \
        --strides 4 --patterns stride --inject-error --out "$T/big-inj"
    if expect "access: random blocks in a buffer of 160 MiB, sampled check" 0 "$AC" "${FAST[@]}" \
        --sizes 160MiB --patterns random --blocks 64 --out "$T/bigr"; then
        check "access random: verified by a sample (both points)" rec points-list \
            "$(ls "$T"/bigr/*-access.json)" params.placement,params.reads,extra.verified \
            '[["in-order", 41943040, "sampled"], ["random", 41943040, "sampled"]]'
        check "access random: both samples' steps odd" \
            rec access-steps-odd "$(ls "$T"/bigr/*-access.json)" 2
    fi
    # --- the table reads the granularity of the largest buffer by where it lives (renamed so
    # here: a CPU's buffer and verdict are whatever they are; the reader of records without
    # headline figures, which integration-headlines.sh holds to gmb-access's own) ---------
    mkdir -p "$T/accg" "$T/accn" "$T/accc" "$T/accf"
    /usr/bin/python3 - "$(ls "$T"/acc/*-access.json)" "$T/accg/x-access.json" \
        "$T/accn/x-access.json" "$T/accc/x-access.json" "$T/accf/x-access.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r.pop("headlines", None)  # a record of before them: the extractors read these edits
g = r["results"]["granularity"]
g[0].update(where="cache", verdict="granularity", granularity_bytes=32)
g[1].update(where="dram", verdict="none", why="no candidate flattens the fetched bandwidth")
g[1].pop("granularity_bytes", None)
r["results"]["misalignment"][1].update(where="dram", worst_over_aligned=0.8)
# random: the 4 MiB buffer read from DRAM (its 32-byte blocks and full-bandwidth block set),
# the 256 KiB one left in the cache with other figures (no row from it)
rnd = r["results"]["random"]
for e, where, bw, share, full in ((rnd[0], "cache", 999.0, 0.99, 32),
                                  (rnd[1], "dram", 812.0, 0.21, 1024)):
    e.update(where=where, full_bw_block_bytes=full)
    b32 = [b for b in e["blocks"] if b["block_bytes"] == 32][0]
    b32.update(bw_GBps=bw, bw_ci_lo_GBps=bw - 1, bw_ci_hi_GBps=bw + 1, of_contiguous=share)
json.dump(r, open(sys.argv[2], "w"))
r["results"]["random"][1]["full_bw_block_bytes"] = None
json.dump(r, open(sys.argv[3], "w"))
r["results"]["random"][1]["where"] = "transition"  # no buffer of random blocks in DRAM
json.dump(r, open(sys.argv[4], "w"))
# the DRAM buffer's largest block failed verification: no bandwidth, no share
r["results"]["random"][1]["where"] = "dram"
b = r["results"]["random"][1]["blocks"][-1]
for k in ("bw_GBps", "bw_ci_lo_GBps", "bw_ci_hi_GBps", "blocks_G_per_s", "of_contiguous"):
    b.pop(k)
json.dump(r, open(sys.argv[5], "w"))
PY
    expect "access: table" 0 "$G" table "$T/accg" &&
        check "access: table rows (DRAM none, cache 32 B, misaligned 80%)" bash -c \
            "grep -q '^| Access granularity (stride curve, DRAM buffer) | B | none claimed |' \
'$T/out' &&
             grep -q '^| Access granularity (stride curve, cache-resident buffer) | B | 32' \
'$T/out' &&
             grep -q \
'^| Misaligned contiguous reads, worst offset, of aligned (DRAM) | % | 80' '$T/out'" &&
        check "access: table rows (random 32-byte reads 812 GB/s, 21%, full from 1024 B: the \
DRAM buffer's)" bash -c \
            "grep -q '^| Random 32-byte reads (DRAM) | GB/s | 812.0 \\[811.0, 813.0\\] |' \
'$T/out' &&
             grep -q '^| Random 32-byte reads, of contiguous (DRAM) | % | 21.00 |' '$T/out' &&
             grep -q '^| Block size for full random-read bandwidth (DRAM) | B | 1024 |' '$T/out'"
    expect "access: table, no random block of full bandwidth" 0 "$G" table "$T/accn" &&
        check "access: table row says none up to the largest block" grep -q \
            '^| Block size for full random-read bandwidth (DRAM) | B | none up to 4096 B |' "$T/out"
    expect "access: table, no random block of full bandwidth, the largest one failed" 0 \
        "$G" table "$T/accf" &&
        check "access: table row says none up to the largest block measured" grep -q \
            '^| Block size for full random-read bandwidth (DRAM) | B | none up to 256 B |' "$T/out"
    expect "access: table of random blocks in no DRAM buffer" 0 "$G" table "$T/accc" &&
        check "access: no random row from a buffer that is not DRAM" \
            bash -c "! grep -q 'Random\|random-read' '$T/out'"

    # --- a planted wrong sum in a confirmation launch (the second one planted; the first lands
    # in the stride point): verified like the sweep's, no ratio from it ---------------------
    if expect "access: planted error in a confirmation exits 1" 1 "$AC" "${FAST[@]}" \
        --sizes 256KiB --strides 8 --offsets 0,4 --inject-error --out "$T/inj-confirm"; then
        rec=$(ls "$T"/inj-confirm/*.json)
        check "access: planted error in a confirmation reported" grep -q \
            "verification failed: offset, 256 KiB, stride 4, offset 0 (confirmation)" "$T/err"
        check "access: planted error in a confirmation: its point marked, no ratio" \
            rec access-confirm-failed "$rec" \
            '[[null, 0, "full"], [null, 4, "full"], ["confirm", 0, "FAILED"],
              ["confirm", 4, "full"]]'
        check "access: planted error in a confirmation: the summary says no ratio" grep -qF \
            "256 KiB: misaligned by 4 B, no ratio (a confirmation launch failed verification)." \
            "$T/out"
    fi
    # --- the sums are poisoned before each point's timed launches: with --offsets 4,0 the
    # aligned confirmation follows the sweep's aligned point, whose sums are the same (one pass
    # a launch at --min-sample-us 1), so a confirmation whose launches wrote nothing would pass
    # on them unpoisoned; here its own launches' sums are the ones checked ----------------
    if expect "access: aligned confirmation right after the sweep's aligned point, verified" 0 \
        "$AC" "${FAST[@]}" --min-sample-us 1 --sizes 256KiB --patterns offset --offsets 4,0 \
        --out "$T/poison"; then
        check "access: the confirmation after the same point: order, passes and checks as meant" \
            rec access-points-list "$(ls "$T"/poison/*.json)" \
            params.pass,params.offset_bytes,params.reps,extra.verified \
            '[[null, 4, 1, "full"], [null, 0, 1, "full"], ["confirm", 0, 1, "full"],
              ["confirm", 4, 1, "full"]]'
    fi
    # --- a planted wrong sum in the random pattern (its first launch: the contiguous
    # reference): exit 1, the point marked, no share of contiguous from it -----------------
    if expect "access: planted error (random) exits 1" 1 "$AC" "${FAST[@]}" --sizes 256KiB \
        --patterns random --blocks 32 --inject-error --out "$T/inj-random"; then
        rec=$(ls "$T"/inj-random/*.json)
        check "access: planted error (random) reported" grep -q \
            "verification failed: random, 256 KiB, 32-byte blocks in order: work-item" "$T/err"
        check "access: planted error (random): record marked, no share of contiguous" \
            rec access-random-failed "$rec" random '[["in-order", "FAILED"], ["random", "full"]]'
        check "access: planted error (random): the summary says no share" grep -qF \
            "no share of contiguous (its reads failed verification)." "$T/out"
    fi
    # --- a planted wrong word in the random-write read-back: the buffer's last word at the
    # first point verified (the in-order reference, where it is written): exit 1, no share;
    # and where it is past the last whole block (kept, not written: checked too) ----------
    if expect "access: planted error (random-write) exits 1" 1 "$AC" "${FAST[@]}" --sizes 256KiB \
        --patterns random-write --blocks 32 --inject-error --out "$T/inj-rw"; then
        rec=$(ls "$T"/inj-rw/*.json)
        check "access: planted error (random-write) reported" grep -q \
            "verification failed: random-write, 256 KiB, 32-byte blocks in order: 1 of 65536 \
words wrong; the first, word 65535 (written)" "$T/err"
        check "access: planted error (random-write): record marked, no share of contiguous" \
            rec access-random-failed "$rec" random_write \
            '[["in-order", "FAILED"], ["random", "full"]]'
        check "access: planted error (random-write): the summary says no share" grep -qF \
            "no share of contiguous (its writes failed verification)." "$T/out"
    fi
    expect "access: planted error in a word random-write leaves alone exits 1" 1 "$AC" \
        "${FAST[@]}" --sizes 65540 --patterns random-write --blocks 64 --inject-error \
        --out "$T/inj-rw-kept" &&
        check "access: planted error in a kept word reported" grep -q \
            "verification failed: random-write, 64 KiB, 64-byte blocks in order: 1 of 16385 \
words wrong; the first, word 16384 (not written)" "$T/err"
    # --- a planted wrong sum fails verification --------------------------------------------
    for p in stride offset; do
        if expect "access: planted error ($p) exits 1" 1 "$AC" "${FAST[@]}" --sizes 256KiB \
            --strides 8 --offsets 0 --patterns "$p" --inject-error --out "$T/inj-$p"; then
            check "access: planted error ($p) reported" grep -q "verification failed: $p" "$T/err"
            check "access: planted error ($p): record marked" rec fields \
                "$(ls "$T"/inj-$p/*.json)" status=verification_failed \
                points.0.extra.verified=FAILED
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
    bada "--blocks 0" --sizes 64KiB --blocks 0
    bada "--blocks 2 (below 4)" --sizes 64KiB --blocks 2
    bada "--blocks 12 (not a power of two)" --sizes 64KiB --blocks 4,12
    bada "--blocks 4:64:x3 (12, 36)" --sizes 64KiB --blocks 4:64:x3
    bada "--blocks 128KiB (above 64 KiB)" --sizes 1MiB --blocks 128KiB
    bada "--blocks garbage" --sizes 64KiB --blocks 4,x
    bada "a block above the smallest buffer" --sizes 4KiB,1MiB --blocks 8KiB
    bada "random-write, --blocks 12" --sizes 64KiB --patterns random-write --blocks 12
    bada "random-write, a block above the smallest buffer" --sizes 4KiB --patterns random-write \
        --blocks 8KiB

    # --- CUDA without a GPU: skipped with the reason ---------------------------------------
    if expect "access --backend cuda without a GPU exits 77" 77 "$AC" --backend cuda \
        --sizes 64KiB --out "$T/cuda"; then
        check "access cuda skip says why" grep -qE "no CUDA device|not built" "$T/err"
        check "access cuda skip writes nothing" test ! -e "$T/cuda"
    fi
fi
