#!/usr/bin/python3
"""validate-record.py - check gmb records against tests/record.schema.json (jsonschema)."""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
bad = 0
for path in sys.argv[2:]:
    try:
        jsonschema.validate(json.load(open(path)), schema,
                            format_checker=jsonschema.FormatChecker())
    except (jsonschema.ValidationError, ValueError) as e:
        print(f"{path}: {getattr(e, 'message', e)} at {list(getattr(e, 'absolute_path', []))}")
        bad = 1
sys.exit(bad)
