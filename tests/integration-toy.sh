# integration-toy.sh - a new program needs no file outside its directory: a copy of the tree
# with tests/fixtures/toy/ (two .c files and a header) as bench/toy/ (and nothing else edited)
# builds gmb-toy, which gmb list names, gmb run runs, gmb table shows (its headline figure)
# and gmb plot draws (its headline figures, with plots/headlines.gp).
TOY="$T/tree"
BUILT=build
[ "$TAG" = san ] && BUILT=build/san
if ! have_opencl; then
    skip "$TAG toy: no OpenCL device (install pocl-opencl-icd)"
else
    # the tree and what this pass built (the CUDA objects too), mtimes kept: only the toy
    # compiles
    mkdir -p "$TOY/$BUILT" "$TOY/bench/toy"
    cp -a Makefile bench common plots "$TOY/"
    find "$BUILT" -mindepth 1 -maxdepth 1 ! -name san ! -name fuzz ! -name bin \
        -exec cp -a {} "$TOY/$BUILT/" \;
    [ -d build/cu ] && [ ! -d "$TOY/build/cu" ] && cp -a build/cu "$TOY/build/"
    cp tests/fixtures/toy/* "$TOY/bench/toy/"
    TB="$TOY/$BIN"
    if expect "toy: make builds gmb-toy" 0 make -C "$TOY" --no-print-directory \
        SAN=$([ "$TAG" = san ] && echo 1 || echo 0) "$BIN/gmb" "$BIN/gmb-toy"; then
        expect "toy: gmb list" 0 "$TB/gmb" list &&
            check "toy: gmb list names it, with its summary" grep -q "^toy  *a toy: fills" \
                "$T/out"
        expect "toy: gmb run" 0 "$TB/gmb" run --backend opencl --out "$T/run" &&
            check "toy: gmb run ran it, its point counted" grep -q "toy: ok, .*, 1 point" \
                "$T/err"
        dir=$(dirname "$(ls "$T"/run/*/*/run.json 2>/dev/null | head -1)")
        check "toy: its record validates" "$VALIDATE" "$SCHEMA" "$dir"/*-toy.json
        expect "toy: gmb table" 0 "$TB/gmb" table "$dir" &&
            check "toy: gmb table shows its headline figure" grep -qE \
                "^\| Toy fill bandwidth \| GB/s \| [0-9.]+ " "$T/out"
        # no script of its own: its headline figures, drawn by plots/headlines.gp
        if command -v gnuplot >/dev/null; then
            expect "toy: gmb plot" 0 "$TB/gmb" plot "$dir" --out "$T/fig" &&
                check "toy: gmb plot draws its headline figures" test -s \
                    "$T/fig/toy-headlines.png" -a -s "$T/fig/toy-headlines.svg" &&
                check "toy: the figure's data holds its figure's row" grep -q \
                    "^Toy fill bandwidth," "$T/fig/data/toy-g1.csv"
        else
            skip "$TAG toy: gmb plot (gnuplot not installed)"
        fi
    fi
fi
