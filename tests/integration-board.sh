# integration-board.sh - the board revision (NVML's part number, device.board_part_number):
# gmb table names it in the column head, gmb compare warns (stderr and its output) when two
# runs' boards differ or only one names its board. Crafted records (a committed H200 record
# with another part number), the committed H200 runs of a -000 and a -001 board, and PoCL
# runs with the stand-in NVML.
BD_H=results/nvidia-h200
BD_000="$BD_H/20261130T234453Z-gpu-check/cuda-sm-one-pass" # call 7, a -000 board (its record)
BD_000B="$BD_H/20261130T234453Z-gpu-check/cuda-sm-resident" # the same call and board
BD_001="$BD_H/20261130T225242Z" # call 1, a -001 board (NOTES.md; written before the field)

# bd_board SRC DST PART: DST/<record> = SRC's copy record with board_part_number PART ("-": none)
bd_board() {
    mkdir -p "$2"
    /usr/bin/python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
if sys.argv[3] == '-':
    r['device'].pop('board_part_number', None)
else:
    r['device']['board_part_number'] = sys.argv[3]
json.dump(r, open(sys.argv[2], 'w'), indent=1)" "$(ls "$1"/*-copy.json)" \
        "$2/$(basename "$(ls "$1"/*-copy.json)")" "$3"
}
# bd_warns NAME A B WANT: gmb compare A B warns exactly WANT times about boards (stderr) and
# says it as often in its output; WANT 1: the line names both sides (BD_A, BD_B)
bd_warns() {
    local name=$1 a=$2 b=$3 want=$4
    if expect "board: compare $name" 0 "$G" compare "$a" "$b"; then
        check "board: compare $name: $want warning(s) on stderr, the same in the output" test \
            "$(grep -c '^gmb: warning: A and B ran on different boards' "$T/err") $(grep -c \
            '^A and B ran on different boards' "$T/out")" = "$want $want"
        if [ "$want" = 1 ]; then
            check "board: compare $name: the warning names both boards" grep -qF \
                "A and B ran on different boards (A: $BD_A, B: $BD_B): board revisions" "$T/err"
        fi
    fi
}

if [ ! -d "$BD_000" ] || [ ! -d "$BD_001" ]; then
    fail "$TAG board: no committed H200 runs $BD_000, $BD_001"
else
    # --- crafted: one committed record, its board changed --------------------------------------
    bd_board "$BD_000" "$T/b000" 692-2G520-0282-000
    bd_board "$BD_000" "$T/b001" 692-2G520-0282-001
    bd_board "$BD_000" "$T/bunk" unknown
    bd_board "$BD_000" "$T/bnone" -
    bd_board "$BD_000" "$T/bnone2" -
    BD_A=692-2G520-0282-000 BD_B=692-2G520-0282-001 \
        bd_warns "two part numbers" "$T/b000" "$T/b001" 1
    BD_A=692-2G520-0282-000 BD_B="part number not recorded" \
        bd_warns "a board against 'unknown' (no NVML)" "$T/b000" "$T/bunk" 1
    BD_A="part number not recorded" BD_B=692-2G520-0282-001 \
        bd_warns "a record without the field against a board" "$T/bnone" "$T/b001" 1
    bd_warns "one board twice" "$T/b000" "$T/b000" 0
    bd_warns "no board on either side" "$T/bnone" "$T/bnone2" 0
    if expect "board: table of two boards" 0 "$G" table "$T/b000" "$T/b001" "$T/bnone"; then
        check "board: table heads name each board, none where the record has none" bash -c \
            "head -1 '$T/out' | grep -qF ', board 692-2G520-0282-000 | ' &&
             head -1 '$T/out' | grep -qF ', board 692-2G520-0282-001 | ' &&
             test \"\$(head -1 '$T/out' | grep -o ', board ' | wc -l)\" = 2"
    fi
    if expect "board: csv table" 0 "$G" table "$T/b001" --format csv; then
        check "board: csv heads name the board (value, ci_lo, ci_hi, unconverged)" test \
            "$(head -1 "$T/out" | grep -o 'board 692-2G520-0282-001' | wc -l)" = 4
    fi
    # --- the committed H200 runs: call 7's -000 board against call 1's -001 -------------------
    BD_A=692-2G520-0282-000 BD_B="part number not recorded" \
        bd_warns "committed -000 run against the -001 run" "$BD_000" "$BD_001" 1
    bd_warns "committed runs of one -000 board" "$BD_000" "$BD_000B" 0
    if expect "board: table of the committed -000 run" 0 "$G" table "$BD_000" "$BD_001"; then
        check "board: the -000 run's head names it, the -001 run's (no field) names none" \
            test "$(head -1 "$T/out")" = \
            "| Metric | Unit | NVIDIA H200 (CUDA), 2026-11-30 23:44, board 692-2G520-0282-000 \
| NVIDIA H200 (CUDA), 2026-11-30 22:52 |"
    fi
fi

# --- PoCL with the stand-in NVML: two boards of one model -------------------------------------
BD_STUB="$PWD/build/tests/stub/libnvidia-ml.so.1"
[ "$TAG" = san ] && BD_STUB="$PWD/build/san/tests/stub/libnvidia-ml.so.1"
if ! have_opencl; then
    skip "$TAG board: no OpenCL device"
elif [ ! -f "$BD_STUB" ]; then
    fail "$TAG board: no stand-in NVML $BD_STUB (make tests builds it)"
else
    bd_ok=1
    for p in 000 001; do
        expect "board: stream on a stand-in -$p board" 0 env GMB_NVML_LIB="$BD_STUB" \
            GMB_TEST_NVML_PCI=0000:01:00.0 GMB_STUB_BOARD_PART=692-2G520-0282-$p \
            "$PWD/$BIN/gmb-stream" "${FAST[@]}" --sizes 64KiB,256KiB --kernels read \
            --out "$T/p$p" || bd_ok=0
    done
    if [ "$bd_ok" = 1 ]; then
        check "board: the records name the stand-in's boards" eval \
            'rec fields "$(ls "$T"/p000/*.json)" device.board_part_number=692-2G520-0282-000 &&
             rec fields "$(ls "$T"/p001/*.json)" device.board_part_number=692-2G520-0282-001'
        if expect "board: compare the two PoCL boards" 0 "$G" compare "$T/p000" "$T/p001"; then
            check "board: PoCL boards differ: one warning, in the output too" test \
                "$(grep -c \
                'ran on different boards (A: 692-2G520-0282-000, B: 692-2G520-0282-001)' \
                "$T/err") $(grep -c '^A and B ran on different boards' "$T/out")" = "1 1"
        fi
        if expect "board: table of the two PoCL boards" 0 "$G" table "$T/p000" "$T/p001"; then
            check "board: PoCL table heads name the boards" bash -c \
                "head -1 '$T/out' |
                 grep -q ', board 692-2G520-0282-000 | .*, board 692-2G520-0282-001 |$'"
        fi
    fi
fi
