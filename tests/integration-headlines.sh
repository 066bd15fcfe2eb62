# integration-headlines.sh - the headline figures a program declares (gmb_headline, the
# record's "headlines"): written by every program, valid, resting on the right points; gmb
# table reads them and prints what the extractors print; a figure no row names is a row of
# its own.
S="$PWD/$BIN/gmb-stream"
# edit SRC DST CODE: DST is the record SRC after CODE ran on r
edit() {
    /usr/bin/python3 - "$@" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(r, open(sys.argv[2], "w"))
PY
}
# same_tables NAME DIR FORMAT...: gmb table of DIR in each format the same from the headline
# figures as from the extractors (GMB_TABLE_READER=legacy); kept as $T/NAME.new.FORMAT
same_tables() {
    local name=$1 dir=$2 fmt
    shift 2
    for fmt in "$@"; do
        expect "headlines: $name table --format $fmt" 0 "$G" table --format "$fmt" "$dir" &&
            cp "$T/out" "$T/$name.new.$fmt"
        expect "headlines: $name table --format $fmt, legacy reader" 0 env \
            GMB_TABLE_READER=legacy "$G" table --format "$fmt" "$dir" &&
            cp "$T/out" "$T/$name.old.$fmt"
        check "headlines: $name's table --format $fmt the same from either reader" \
            cmp -s "$T/$name.new.$fmt" "$T/$name.old.$fmt"
    done
}
# same_rows NAME DIR [ROW...]: the Markdown table's rows the same from either reader, the
# unconverged marks aside (the extractors of some programs never looked), but for the rows
# named (labels of figures the extractors never had), each there; the rows kept as
# $T/NAME.md, the whole table from the figures as $T/NAME.tab
same_rows() {
    local name=$1 dir=$2 row
    shift 2
    expect "headlines: $name table" 0 "$G" table "$dir" && cp "$T/out" "$T/$name.tab" &&
        grep '^|' "$T/out" | sed 's/ †//g' >"$T/$name.md"
    expect "headlines: $name table, legacy reader" 0 env GMB_TABLE_READER=legacy "$G" table \
        "$dir" && grep '^|' "$T/out" | sed 's/ †//g' >"$T/$name.old.md"
    cp "$T/$name.md" "$T/$name.cut"
    for row in "$@"; do
        check "headlines: $name's new row: $row" grep -qF "| $row |" "$T/$name.md"
        grep -vF "| $row |" "$T/$name.cut" >"$T/$name.cut2"
        mv "$T/$name.cut2" "$T/$name.cut"
    done
    check "headlines: $name's table the extractors' (the unconverged marks aside)" \
        cmp -s "$T/$name.cut" "$T/$name.old.md"
    cmp -s "$T/$name.cut" "$T/$name.old.md" ||
        diff "$T/$name.old.md" "$T/$name.cut" | sed 's/^/    /' | head -20
}
if ! have_opencl; then
    skip "$TAG headlines: no OpenCL device (install pocl-opencl-icd)"
elif expect "headlines: stream run" 0 "$S" "${FAST[@]}" --sizes 64KiB:1MiB:x4 --widths 4 \
    --out "$T/hl"; then
    rec=$(ls "$T"/hl/*-stream.json)
    check "headlines: the record validates" "$VALIDATE" "$SCHEMA" "$rec"
    check "headlines: version 1" rec headlines-version "$rec" 1
    labels=("Read bandwidth" "Copy bandwidth" "Triad bandwidth")
    [ "$(json "$rec" "r['device']['peak_bw_GBps'] > 0")" = True ] &&
        labels+=("Read, of nominal peak" "Copy, of nominal peak" "Triad, of nominal peak")
    check "headlines: stream's figures: read, copy, triad (and % of peak where it is known)" \
        rec figure-labels "$rec" "${labels[@]}"
    check "headlines: read, copy, triad in GB/s" rec figure-unit "$rec" GB/s "${labels[@]:0:3}"
    for k in read copy triad; do
        check "headlines: $k's figure rests on a point of its kernel" rec figure-on-one "$rec" \
            "${k^} bandwidth" kernel="$k"
        check "headlines: $k's figure is its point's median" rec figure-is-median "$rec" \
            "${k^} bandwidth" bw_GBps
    done
    check "headlines: cache-sized points are marked so" rec every-figure-noted "$rec" \
        cache-resident
    # the predicates can fail: a wrong kernel, a wrong version, a bad call
    expect "records.py: a figure on another kernel's point does not hold" 1 rec figure-on-one \
        "$rec" "Read bandwidth" kernel=copy
    expect "records.py: another version does not hold" 1 rec headlines-version "$rec" 2
    expect "records.py: an unknown predicate is a bad call" 2 rec no-such-predicate "$rec"

    # gmb table: the same table from the headlines as from the extractors
    same_tables stream "$T/hl" md csv tex
    check "headlines: the table shows the read figure" grep -q "^| Read bandwidth | GB/s" \
        "$T/stream.new.md"

    # the headlines are what the table reads: a figure taken out is a row gone
    mkdir -p "$T/cut" "$T/v9" "$T/toy"
    edit "$rec" "$T/cut/$(basename "$rec")" "r['headlines']['figures'] = [x for x in \
r['headlines']['figures'] if x['label'] != 'Copy bandwidth']"
    expect "headlines: table of a record without the copy figure" 0 "$G" table "$T/cut" &&
        check "headlines: no copy row without its figure" bash -c \
            "! grep -q '^| Copy bandwidth ' '$T/out' && grep -q '^| Read bandwidth ' '$T/out'"
    # a version this reader does not know: the extractors read it
    edit "$rec" "$T/v9/$(basename "$rec")" "r['headlines']['version'] = 9
r['headlines']['figures'] = []"
    expect "headlines: table of a record of headlines version 9" 0 "$G" table "$T/v9" &&
        check "headlines: an unknown version is read as before" cmp -s "$T/out" "$T/stream.old.md"
    # a program no row names: its figures are rows of their own, with their notes
    edit "$rec" "$T/toy/$(basename "$rec" | sed s/stream/toy/)" "r['benchmark'] = 'toy'
r['headlines']['figures'] = [dict(label='Toy rate', unit='ops/s', better='higher', value=42.0,
    ci_lo=41.0, ci_hi=43.0, points=[0], notes=['cache-resident'])]"
    expect "headlines: table of a toy program's record" 0 "$G" table "$T/toy" &&
        check "headlines: the toy's figure is a row, its note marked" \
            grep -q "^| Toy rate | ops/s | 42.00 \[41.00, 43.00\] ᶜ" "$T/out"
    expect "headlines: compare the toy with itself" 0 "$G" compare "$T/toy" "$T/toy" &&
        check "headlines: compare shows the toy's figure" grep -q "Toy rate" "$T/out"
fi

# gmb-copy: its figures, the host placement a text one; the table is the extractors' but for
# the unconverged marks, which its rows now carry as stream's do
C="$PWD/$BIN/gmb-copy"
if have_opencl && expect "headlines: copy run" 0 "$C" "${FAST[@]}" --sizes 4KiB,1MiB \
    --out "$T/hc"; then
    rec=$(ls "$T"/hc/*-copy.json)
    check "headlines: the copy record validates" "$VALIDATE" "$SCHEMA" "$rec"
    check "headlines: copy's host placement is a text figure" rec figure-text "$rec" \
        "Host memory of the copies (pinned)" "not bound" "not bound, pages NUMA 0" "near:*" \
        "kept:*" "bound:*"
    check "headlines: the largest pinned copy rests on its point" rec figure-on-one "$rec" \
        "Host to device, pinned, largest copy" direction=h2d kind=pinned engine=ce \
        size_bytes=1048576
    check "headlines: the smallest copy's time rests on the smallest copy" rec figure-on-one \
        "$rec" "Host to device, pinned, smallest copy" size_bytes=4096
    same_rows copy "$T/hc"
    check "headlines: copy's table has its rows" test "$(wc -l <"$T/copy.old.md")" -ge 8
    want=$(rec figure-noted "$rec" "Host to device, pinned, largest copy" unconverged 2>/dev/null &&
        echo True || echo False)
    got=$(grep -q '^| Host to device, pinned, largest copy .* † |$' "$T/copy.tab" && echo True ||
        echo False)
    check "headlines: a copy row marked unconverged where its figure says so" test "$want" = "$got"
fi

# gmb-atomic: each scope and op's figures rest on the points they summarise
A="$PWD/$BIN/gmb-atomic"
if have_opencl && expect "headlines: atomic run" 0 "$A" "${FAST[@]}" --out "$T/ha"; then
    rec=$(ls "$T"/ha/*-atomic.json)
    check "headlines: the atomic record validates" "$VALIDATE" "$SCHEMA" "$rec"
    check "headlines: atomic's one-address time rests on the one-address atom point" \
        rec figure-on-one "$rec" "Global atomic adds (atom), one address: time per update" \
        scope=global op=atom all=true
    same_rows atomic "$T/ha"
    check "headlines: atomic's six rows" test "$(grep -c 'atomic adds' "$T/atomic.old.md")" = 6
fi

# gmb-um: its text and rate figures; the table is the extractors', marks and all
U="$PWD/$BIN/gmb-um"
if have_opencl && expect "headlines: um run" 0 "$U" --backend opencl --warmup 0 --min-samples 2 \
    --max-samples 3 --time-cap 0.05 --quiet --out "$T/hu"; then
    rec=$(ls "$T"/hu/*-um.json)
    check "headlines: the um record validates" "$VALIDATE" "$SCHEMA" "$rec"
    check "headlines: um says how managed memory moves, as text" rec figure-text-is-result \
        "$rec" "Managed memory moves" migration
    check "headlines: um's resident rate rests on its largest buffer" rec figure-on-one "$rec" \
        "Managed: device reads, data on the device" \
        size_bytes="$(json "$rec" "r['results']['largest']['resident']['size_bytes']")"
    same_tables um "$T/hu" md csv
fi

# gmb-bank: the banks found (text) and the bandwidth figures resting on their points
B="$PWD/$BIN/gmb-bank"
if have_opencl && expect "headlines: bank run" 0 "$B" --backend opencl --warmup 0 \
    --min-samples 2 --max-samples 3 --time-cap 0.05 --quiet --out "$T/hb"; then
    rec=$(ls "$T"/hb/*-bank.json)
    check "headlines: the bank record validates" "$VALIDATE" "$SCHEMA" "$rec"
    check "headlines: bank's no-conflict bandwidth rests on the fastest 4-byte stride" \
        rec figure-on-one "$rec" "Shared-memory bandwidth, no conflict" mode=throughput \
        pattern=stride width_bytes=4 \
        param="$(json "$rec" "r['results']['bandwidth']['4']['fastest_stride']['stride']")"
    same_rows bank "$T/hb" "Shared-memory latency, no conflict (4-byte words, stride 1)"
    check "headlines: bank's rows there" grep -q "^| Shared-memory banks |" "$T/bank.md"
fi

# gmb-access: granularity of a cache-resident and a DRAM buffer (4 MiB and 256 MiB: past four
# times this machine's LLC of at most 64 MiB, else no DRAM row), misaligned and random reads
AX="$PWD/$BIN/gmb-access"
if have_opencl && expect "headlines: access run" 0 "$AX" --backend opencl --warmup 0 \
    --min-samples 2 --max-samples 3 --time-cap 0.05 --quiet --sizes 4MiB,256MiB \
    --strides 4,8,16,32,64,128 --offsets 0,4 --blocks 32,4096 \
    --patterns stride,offset,random,random-write --out "$T/hx"; then
    rec=$(ls "$T"/hx/*-access.json)
    check "headlines: the access record validates" "$VALIDATE" "$SCHEMA" "$rec"
    big=$(rec llc-within "$rec" 268435456 4 2>/dev/null && echo True || echo False)
    [ "$big" = True ] &&
        check "headlines: access's random 32-byte reads rest on the 256 MiB buffer's blocks" \
            rec figure-on "$rec" "Random 32-byte reads (DRAM)" pattern=random placement=random \
            size_bytes=268435456 block_bytes=32
    check "headlines: access's DRAM granularity rests on its buffer's stride points" \
        rec figure-on-if-there "$rec" "Access granularity (stride curve, DRAM buffer)" \
        pattern=stride size_bytes=268435456
    check "headlines: access's cache granularity rests on its buffer's stride points" \
        rec figure-on-if-there "$rec" "Access granularity (stride curve, cache-resident buffer)" \
        pattern=stride size_bytes=4194304
    same_rows access "$T/hx"
    if [ "$big" = True ]; then
        for row in "Access granularity (stride curve, DRAM buffer)" \
            "Access granularity (stride curve, cache-resident buffer)" \
            "Misaligned contiguous reads, worst offset, of aligned (DRAM)" \
            "Random 32-byte reads (DRAM)" "Random 32-byte reads, of contiguous (DRAM)" \
            "Block size for full random-read bandwidth (DRAM)" "Random 32-byte writes (DRAM)" \
            "Random 32-byte writes, of contiguous (DRAM)"; do
            check "headlines: access row: $row" grep -qF "| $row |" "$T/access.md"
        done
    else
        skip "$TAG headlines: access's DRAM rows (this machine's LLC is over 64 MiB)"
    fi
fi

# gmb-loaded: the read and write curves' figures, each on the levels it is read from
L="$PWD/$BIN/gmb-loaded"
if have_opencl && expect "headlines: loaded run" 0 "$L" "${FAST[@]}" --size 1MiB \
    --stream-size 1MiB --min-sample-us 300 --traffic read,write --out "$T/hl2"; then
    rec=$(ls "$T"/hl2/*-loaded.json)
    check "headlines: the loaded record validates" "$VALIDATE" "$SCHEMA" "$rec"
    check "headlines: loaded's idle latency rests on the level of no streaming groups" \
        rec figure-on-one "$rec" "Loaded: chase latency, idle (index chase)" traffic=read \
        load_groups=0
    check "headlines: loaded's most write bandwidth rests on the write curve's fastest level" \
        rec figure-on-max "$rec" "Loaded by writes: the most bandwidth beside the chase" \
        bw_GBps traffic=write
    same_tables loaded "$T/hl2" md csv tex
    check "headlines: loaded's write rows there" grep -q \
        "^| Loaded by writes: latency at the knee" "$T/loaded.new.md"
fi

# gmb-l2: the plateaus' figures, each resting on its plateau's points
L2="$PWD/$BIN/gmb-l2"
if have_opencl && expect "headlines: l2 run" 0 "$L2" "${FAST[@]}" --sizes 1MiB:256MiB:2/oct \
    --l1-sizes 4KiB:8MiB:x2 --coldwarm-sizes 1MiB --out "$T/hl3"; then
    rec=$(ls "$T"/hl3/*-l2.json)
    check "headlines: the l2 record validates" "$VALIDATE" "$SCHEMA" "$rec"
    # what the fit finds on a CPU varies from run to run: a figure where the results have one
    check "headlines: l2's cache plateau where the fit found one, on its plateau's read points" \
        rec l2-cache-plateau-figure "$rec"
    check "headlines: l2's cold/warm figure rests on the 1 MiB set's cold and warm points" \
        rec figure-param-values "$rec" "Cold / warm time, smallest set" state cold warm
    same_rows l2 "$T/hl3"
    check "headlines: l2's rows there" grep -q '^| Cold / warm time, smallest set |' "$T/l2.md"
fi

# gmb-chase: a latency for each level the table has a row for, on the points of its level
CH="$PWD/$BIN/gmb-chase"
if have_opencl && expect "headlines: chase run" 0 "$CH" "${FAST[@]}" --min-sample-us 300 \
    --spaces global,shared,constant,host --sizes 1KiB:160MiB:2/oct --mode random,page \
    --page-sizes 2MiB --out "$T/hl4"; then
    rec=$(ls "$T"/hl4/*-chase.json)
    check "headlines: the chase record validates" "$VALIDATE" "$SCHEMA" "$rec"
    # the levels found on a CPU vary from run to run: a figure where the curve has the level
    check "headlines: chase's level 1 where the curve has one, on its sizes' random points" \
        rec chase-level1-figure "$rec" "Latency level 1 (index chase)"
    same_tables chase "$T/hl4" md csv tex
    # (the levels a CPU shows vary, under ASan most: a row for each figure, whatever they are)
    check "headlines: chase's rows: one for each index-chase figure" rec chase-figure-pairs \
        "$rec" "$(grep -c '(index chase)' "$T/chase.new.md")" "(index chase)"
fi
if have_opencl && expect "headlines: chase run, pointers" 0 "$CH" "${FAST[@]}" --min-sample-us 300 \
    --spaces global --sizes 1KiB:16MiB:2/oct --mode random --pointers --out "$T/hl5"; then
    same_tables pointers "$T/hl5" md
    prec=$(ls "$T"/hl5/*-chase.json)
    check "headlines: chase's pointer-chase rows: one for each figure" rec chase-figure-pairs \
        "$prec" "$(grep -c '(pointer chase)' "$T/pointers.new.md")"
fi

# the level view of every program's records together: its rows are the figures' levels, the
# same as the extractors' mapping gives (the unconverged marks aside)
if have_opencl; then
    mkdir -p "$T/every"
    cp "$T"/h*/*.json "$T/every/"
    expect "headlines: table --levels of every program" 0 "$G" table --levels "$T/every" &&
        grep '^|' "$T/out" | sed 's/ †//g' >"$T/lv.new"
    expect "headlines: table --levels, legacy reader" 0 env GMB_TABLE_READER=legacy "$G" table \
        --levels "$T/every" && grep '^|' "$T/out" | sed 's/ †//g' >"$T/lv.old"
    check "headlines: the level view the same from either reader" cmp -s "$T/lv.new" "$T/lv.old"
    check "headlines: the level view has the shared memory's and the host links' rows" bash -c \
        "grep -q '^| Shared memory, aggregate |' '$T/lv.new' &&
         grep -q '^| Host link, host to device |' '$T/lv.new'"
    # a figure is a value of a quantity only where it is that quantity
    rec=$(ls "$T"/hl/*-stream.json)
    check "headlines: stream's cache-sized read is no memory read bandwidth" \
        rec figure-unchecked "$rec" "Read bandwidth"
    rec=$(ls "$T"/hl3/*-l2.json)
    check "headlines: l2's memory plateau a memory read bandwidth where the sweep reached it" \
        rec l2-memory-checked-iff-reached "$rec"
    check "headlines: every check's value is its figure's (copy's SM kernel: twice)" \
        rec checks-are-values "$(ls "$T"/hc/*-copy.json)" \
        "Device to device, SM kernel (bytes copied)" 2
fi
