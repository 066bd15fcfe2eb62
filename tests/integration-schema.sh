# integration-schema.sh - every program on PoCL, with the stand-in NVML (tests/unit/nvml_stub.c)
# and --peak-bw, writes what only a GPU run writes otherwise (the board's serial and part
# number, clocks on every point, pct_peak): each record validates against the schema of the
# version gmb writes now, and every field the schema lists in its properties is written by at
# least one of them, so a field no test ever sees fails here. Small FAST sweeps.
SC_STUB="$PWD/build/tests/stub/libnvidia-ml.so.1"
[ "$TAG" = san ] && SC_STUB="$PWD/build/san/tests/stub/libnvidia-ml.so.1"
SC_NV=(env GMB_NVML_LIB="$SC_STUB" GMB_TEST_NVML_PCI=0000:01:00.0)

# sc_fields SCHEMA RECORD...: the fields SCHEMA lists in its properties (a dotted path, []
# for an array's items, * for any key) that no RECORD has; prints them, exit 1 when any
sc_fields() {
    /usr/bin/python3 - "$@" <<'PY'
import json, sys
schema = json.load(open(sys.argv[1]))
recs = [json.load(open(p)) for p in sys.argv[2:]]

def resolve(node):
    seen = 0
    while isinstance(node, dict) and "$ref" in node and seen < 32:
        target = schema
        for part in node["$ref"].lstrip("#").strip("/").split("/"):
            target = target[part]
        rest = {k: v for k, v in node.items() if k != "$ref"}
        node = dict(target, **rest) if rest else target
        seen += 1
    return node

fields = []
def walk(node, path, depth=0):
    node = resolve(node)
    if not isinstance(node, dict) or depth > 24:
        return
    for k in ("allOf", "anyOf", "oneOf"):
        for sub in node.get(k, []):
            walk(sub, path, depth + 1)
    for k in ("then", "else"):
        if k in node:
            walk(node[k], path, depth + 1)
    for name, sub in node.get("properties", {}).items():
        fields.append(path + [name])
        walk(sub, path + [name], depth + 1)
    if isinstance(node.get("items"), dict):
        walk(node["items"], path + ["[]"], depth + 1)
    if isinstance(node.get("additionalProperties"), dict):
        walk(node["additionalProperties"], path + ["*"], depth + 1)
walk(schema, [])

def has(v, path):
    if not path:
        return True
    seg, rest = path[0], path[1:]
    if seg == "[]":
        return isinstance(v, list) and any(has(x, rest) for x in v)
    if seg == "*":
        return isinstance(v, dict) and any(has(x, rest) for x in v.values())
    return isinstance(v, dict) and seg in v and has(v[seg], rest)

missing = sorted({".".join(p) for p in fields if not any(has(r, p) for r in recs)})
print(f"{len(fields)} fields listed, {len(missing)} never written" +
      (": " + ", ".join(missing) if missing else ""))
sys.exit(1 if missing else 0)
PY
}

if ! have_opencl; then
    skip "$TAG schema: no OpenCL device"
elif [ ! -f "$SC_STUB" ]; then
    fail "$TAG schema: no stand-in NVML $SC_STUB (make tests builds it)"
else
    SC=$T/schema
    mkdir -p "$SC"
    sc_run() { # name program options...: one program's record into $SC/<name>
        local name=$1 prog=$2
        shift 2
        expect "schema: $name with the stand-in NVML and --peak-bw" 0 "${SC_NV[@]}" \
            "$PWD/$BIN/gmb-$prog" --peak-bw 100 "$@" --out "$SC/$name"
    }
    SC_UM=() # gmb-um takes FAST but --min-sample-us (it sizes no sample of its own)
    for ((i = 0; i < ${#FAST[@]}; i++)); do
        if [ "${FAST[$i]}" = --min-sample-us ]; then i=$((i + 1)); else SC_UM+=("${FAST[$i]}"); fi
    done
    sc_run access access "${FAST[@]}" --sizes 256KiB --strides 4,128 --offsets 0,4 --blocks 32
    sc_run atomic atomic "${FAST[@]}" --sharers 1,2 --spacing 4
    sc_run bank bank "${FAST[@]}" --strides 0:4
    sc_run chase chase "${FAST[@]}" --min-sample-us 300 --sizes 4KiB,64KiB --mode random
    sc_run copy copy "${FAST[@]}" --sizes 64KiB --directions h2d,d2h --kinds pinned
    sc_run l2 l2 "${FAST[@]}" --sizes 256KiB:1MiB:x4 --coldwarm-sizes 256KiB --flush 2MiB
    sc_run loaded loaded "${FAST[@]}" --min-sample-us 300 --size 1MiB --stream-size 1MiB \
        --groups 0,2
    sc_run um um "${SC_UM[@]}" --sizes 64KiB --pages 4 --strides 4KiB
    # NVML slow to answer (5 ms a query): the queries stop, points_stopped says why
    GMB_STUB_VIOL_READ_US=5000 sc_run stream stream "${FAST[@]}" --sizes 1MiB:8MiB:x2 \
        --kernels read,copy
    mapfile -t SC_RECS < <(ls "$SC"/*/*.json 2>/dev/null)
    check "schema: each of the 9 programs wrote its record" test "${#SC_RECS[@]}" = 9
    for r in "${SC_RECS[@]}"; do
        b=$(basename "$(dirname "$r")")
        if "$VALIDATE" "$SCHEMA" "$r" >"$T/val" 2>&1; then
            pass "$TAG schema: $b's record validates against the current schema"
        else
            fail "$TAG schema: $b's record: $(head -1 "$T/val")"
        fi
    done
    # sc_every NAME ARG...: predicate NAME holds on every record (one at least)
    sc_every() {
        local r
        [ "${#SC_RECS[@]}" -gt 0 ] || return 1
        for r in "${SC_RECS[@]}"; do rec "$1" "$r" "${@:2}" || return 1; done
    }
    SC_VERSION=$(json "$SCHEMA" "r['properties']['schema_version']['const']")
    check "schema: every record is of the version gmb writes, the schema's" \
        sc_every fields "schema_version=$SC_VERSION"
    # what only NVML gives: the stand-in's board in every record, clocks on every point
    check "schema: every record names the stand-in's board (serial, part number)" \
        sc_every fields 'device.serial="1654124045436"' device.board_part_number=692-2G520-0282-001
    # pct_peak in every program that computes one (a point metric: median and CI, as any)
    for b in stream loaded; do
        check "schema: $b writes pct_peak on its points, a statistics object" \
            rec schema-pct-peak-stats "$(ls "$SC/$b"/*.json)"
    done
    check "schema: loaded's pct_peak is its bandwidth over the given peak (100 GB/s)" \
        rec schema-pct-peak-is-bw "$(ls "$SC/loaded"/*.json)"
    # every field of the schema written by some program here
    if sc_fields "$SCHEMA" "${SC_RECS[@]}" >"$T/fields"; then
        pass "$TAG schema: every field the schema lists is written ($(cat "$T/fields"))"
    else
        fail "$TAG schema: $(cat "$T/fields")"
    fi
    # ... and the check fails on a field nobody writes (a schema with one more)
    /usr/bin/python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
s['properties']['device']['properties']['never_written'] = {'type': 'string'}
json.dump(s, open(sys.argv[2], 'w'))" "$SCHEMA" "$T/more.schema.json"
    check "schema: a field no program writes fails the check, named" test "$(sc_fields \
        "$T/more.schema.json" "${SC_RECS[@]}" >"$T/fields2"; echo $?)$(grep -c \
        'never written: device.never_written$' "$T/fields2")" = 11
fi
