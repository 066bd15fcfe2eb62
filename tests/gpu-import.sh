#!/usr/bin/env bash
# gpu-import.sh TGZ [RESULTS] - bring a tests/gpu-check.sh run home: its quick `gmb run` goes to
# results/<device-slug>/<UTC>/ (the suite's own layout), every default-sweep record of the
# check to results/<device-slug>/<UTC>-gpu-check/ (a check without the suite: its records
# alone, <UTC> the earliest record's), with the check's log and nvidia-smi
# reports (RESULTS instead of results/ when given); then `gmb plot` (when gnuplot is here),
# `gmb table` (md, tex, csv) and `gmb report` of the run.
# Nothing already under results/ is overwritten. Prints what to `git add -f` to publish.
set -eu
cd "$(dirname "$0")/.."
[ $# -ge 1 ] && [ $# -le 2 ] && [ -f "$1" ] || {
    echo "usage: tests/gpu-import.sh gmb-check.tgz [results-dir] \
(from tests/gpu-check.sh's \$OUT)" >&2
    exit 2
}
T=$(mktemp -d /tmp/gmb-import.XXXXXX)
trap 'rm -rf "$T"' EXIT
tar xzf "$1" -C "$T"
run=$(ls -d "$T"/suite/*/*/ 2>/dev/null | tail -1)
R=${2:-results}
if [ -n "$run" ] && [ -f "$run/run.json" ]; then
    run=${run%/}
    slug=$(basename "$(dirname "$run")")
    stamp=$(basename "$run")
else # a check without the suite: its records alone, under the earliest record's time
    run=""
    first=$(ls "$T"/*/*.json 2>/dev/null | xargs -n1 basename 2>/dev/null | sort | head -1)
    [ -n "$first" ] || {
        echo "gpu-import: no gmb run and no record in $1" >&2
        exit 1
    }
    stamp=${first%%-*}
    # the device's directory: its name as gmb_slug() makes it (lower case, runs of other
    # characters one dash)
    slug=$(python3 - "$T" <<'PY'
import glob, json, re, sys
r = json.load(open(sorted(glob.glob(sys.argv[1] + "/*/*.json"))[0]))
print(re.sub(r"-+", "-", re.sub(r"[^a-z0-9]+", "-", r["device"]["name"].lower())).strip("-"))
PY
)
fi
dest=$R/$slug/$stamp
check=$R/$slug/$stamp-gpu-check
for d in ${run:+"$dest"} "$check"; do
    [ ! -e "$d" ] || {
        echo "gpu-import: $d exists: not overwritten" >&2
        exit 1
    }
done
mkdir -p "$R/$slug"
[ -z "$run" ] || cp -r "$run" "$dest"
mkdir -p "$check"
for sub in "$T"/*/; do # cuda/, opencl/, cuda-gs512/, ... (not the suite)
    name=$(basename "$sub")
    [ "$name" = suite ] && continue
    mkdir -p "$check/$name"
    cp "$sub"/*.json "$sub"/*.csv "$check/$name/" 2>/dev/null || true
done
cp "$T"/*.txt "$T"/*.tsv "$T"/*.log "$check/" 2>/dev/null || true
if [ -z "$run" ]; then
    echo "gpu-import: no gmb run in $1: its records alone"
    echo "publish with: git add -f $check"
    exit 0
fi
if command -v gnuplot >/dev/null; then
    bin/gmb plot "$dest" >/dev/null
else
    echo "gpu-import: no gnuplot here: figures not drawn (gmb plot $dest where it is)" >&2
fi
for f in md tex csv; do
    bin/gmb table "$dest" --format "$f" --out "$dest/table.$f"
done
bin/gmb report "$dest" >/dev/null
cat "$dest/table.md"
echo
# what each program of the quick profile took there: the EST_S of plots/profiles.conf's GPU
# lines are guesses until a run like this replaces them
python3 - "$dest/run.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
print(f"quick profile on {m.get('device', {}).get('name', '?')}: {m.get('wall_s', 0):.1f} s in all")
for p in m["programs"]:
    print(f"  {p['name']:8s} {p.get('wall_s') or 0:6.1f} s "
          f"(estimate {p.get('estimate_s') or 0:g} s)  {p['status']}")
PY
echo
echo "publish with: git add -f $dest $check"
