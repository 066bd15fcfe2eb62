#!/usr/bin/env python3
"""seeds.py CORPUS DICT - the fuzz target's seeds and dictionary, from the committed records.

Every JSON file under results/ and tests/fixtures/ becomes one seed: a record cut to a few
points and samples (the fuzzer mutates small inputs faster, and libFuzzer's -max_len would cut
a large one into invalid JSON), a manifest (run.json) as it is. The dictionary holds every
object key and short string value seen, so mutations keep the record's vocabulary."""
import hashlib
import json
import os
import sys


def trim(v, depth=0):
    """v with every array cut to 4 items (first, two inner, last), recursively."""
    if isinstance(v, list):
        if len(v) > 4:
            v = [v[0], v[len(v) // 3], v[2 * len(v) // 3], v[-1]]
        return [trim(x, depth + 1) for x in v]
    if isinstance(v, dict):
        return {k: trim(x, depth + 1) for k, x in v.items()}
    return v


def words(v, out):
    if isinstance(v, dict):
        for k, x in v.items():
            out.add(k)
            words(x, out)
    elif isinstance(v, list):
        for x in v:
            words(x, out)
    elif isinstance(v, str) and 0 < len(v) <= 24:
        out.add(v)


def main():
    corpus, dictfile = sys.argv[1], sys.argv[2]
    os.makedirs(corpus, exist_ok=True)
    vocab, n = set(), 0
    for root in ("results", "tests/fixtures"):
        for d, _, files in os.walk(root):
            for f in sorted(files):
                if not f.endswith(".json"):
                    continue
                try:
                    with open(os.path.join(d, f), encoding="utf-8") as fh:
                        j = json.load(fh)
                except (OSError, ValueError):
                    continue
                words(j, vocab)
                data = json.dumps(trim(j), separators=(",", ":")).encode()
                if len(data) > 60000:  # still large (many keys): the first points only
                    if isinstance(j, dict) and isinstance(j.get("points"), list):
                        j["points"] = j["points"][:2]
                    data = json.dumps(trim(j), separators=(",", ":")).encode()[:60000]
                name = hashlib.sha1(data).hexdigest()
                with open(os.path.join(corpus, name), "wb") as fh:
                    fh.write(data)
                n += 1
    with open(dictfile, "w", encoding="ascii") as fh:
        for w in sorted(vocab):
            s = json.dumps(w)  # a JSON string literal, quotes included
            if s.isascii() and "\\" not in s:
                fh.write('"%s"\n' % s.replace('"', '\\"'))
        for tok in ("{", "}", "[", "]", ":", ",", "null", "true", "false", "-1", "1e308",
                    "NaN", "0.0", '"\\u0000"', "18446744073709551615"):
            fh.write('"%s"\n' % tok.replace("\\", "\\\\").replace('"', '\\"'))
    print("%d seeds, %d dictionary words" % (n, len(vocab)))
    return 0 if n else 1


if __name__ == "__main__":
    sys.exit(main())
