#!/usr/bin/python3
"""validate-record.py - check gmb records against their schema (jsonschema).

usage: validate-record.py [--each] SCHEMA RECORD...

SCHEMA is a schema file (tests/record.schema.json: the version gmb writes now; a record of
another version fails its schema_version const) or a directory of versioned schemas
(tests/schema/, record-v<N>.schema.json): each record is checked against the schema of the
schema_version it carries, and a version with no schema there is a failure that says so.
One line per bad record: "PATH: what is wrong at [where]"; with --each also "ok PATH (vN)"
for each good one. Exit 0 when every record is valid, 1 otherwise, 2 on bad usage.
"""
import json
import os
import re
import sys

import jsonschema


def versions(d):
    """{version: path} of the record-v<N>.schema.json files in directory d"""
    out = {}
    for name in os.listdir(d):
        m = re.fullmatch(r"record-v([0-9]+)\.schema\.json", name)
        if m:
            out[int(m.group(1))] = os.path.join(d, name)
    return out


def main(argv):
    each = False
    if argv and argv[0] == "--each":
        each = True
        argv = argv[1:]
    if len(argv) < 2:
        print("usage: validate-record.py [--each] SCHEMA-FILE|SCHEMA-DIR RECORD...",
              file=sys.stderr)
        return 2
    where, paths = argv[0], argv[1:]
    known = versions(where) if os.path.isdir(where) else None
    if known is not None and not known:
        print(f"{where}: no record-v<N>.schema.json in it", file=sys.stderr)
        return 2
    cache = {}

    def validator(path):
        if path not in cache:
            with open(path) as f:
                s = json.load(f)
            cache[path] = jsonschema.Draft202012Validator(
                s, format_checker=jsonschema.FormatChecker())
        return cache[path]

    bad = 0
    for path in paths:
        try:
            with open(path) as f:
                rec = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{path}: not readable JSON: {e}")
            bad = 1
            continue
        ver = rec.get("schema_version") if isinstance(rec, dict) else None
        if known is None:
            schema = where
        elif not isinstance(rec, dict) or rec.get("schema") != "gmb-record":
            print(f"{path}: not a gmb record (no \"schema\": \"gmb-record\")")
            bad = 1
            continue
        elif not isinstance(ver, int) or isinstance(ver, bool):
            print(f"{path}: no integer schema_version ({json.dumps(ver)})")
            bad = 1
            continue
        elif ver not in known:
            have = ", ".join(str(v) for v in sorted(known))
            print(f"{path}: schema_version {ver} is unknown: {where} has schemas for {have}")
            bad = 1
            continue
        else:
            schema = known[ver]
        errs = sorted(validator(schema).iter_errors(rec), key=lambda e: list(e.absolute_path))
        if errs:
            e = jsonschema.exceptions.best_match(errs)
            more = f" (and {len(errs) - 1} more)" if len(errs) > 1 else ""
            print(f"{path}: {e.message} at {list(e.absolute_path)}"
                  f" against {os.path.basename(os.path.realpath(schema))}{more}")
            bad = 1
        elif each:
            print(f"ok {path} (v{ver})")
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
