#!/usr/bin/env python3
"""Usage: same_certificate.py UNSHARDED.json MERGED.json

Exit 0 when a merged certificate (bngcert merge) equals the unsharded one
(bngcert certify, same options) field by field, except what may differ:
timing (started_utc, generated_utc, duration_s), threads (jobs), the
"sharding" member the merge adds to each run, and the top-level digest
(it covers those). Prints every other difference and exits 1.
"""
import json
import sys

IGNORED = {"started_utc", "generated_utc", "duration_s", "jobs", "sharding"}


def diff(a, b, path, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key in IGNORED or (path == "" and key == "digest"):
                continue
            where = f"{path}.{key}" if path else key
            if key not in a:
                out.append(f"{where}: only in the merged certificate")
            elif key not in b:
                out.append(f"{where}: missing from the merged certificate")
            else:
                diff(a[key], b[key], where, out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} items unsharded, {len(b)} merged")
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, f"{path}[{i}]", out)
    elif a != b or type(a) is not type(b):
        out.append(f"{path}: unsharded {json.dumps(a)}, merged {json.dumps(b)}")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        unsharded = json.load(f)
    with open(sys.argv[2]) as f:
        merged = json.load(f)
    out = []
    diff(unsharded, merged, "", out)
    for line in out:
        print(line)
    if out:
        print(f"{len(out)} difference(s) between {sys.argv[1]} and {sys.argv[2]}")
        sys.exit(1)
    print(f"same certificate (verdict {merged.get('verdict')}): {sys.argv[2]}")


if __name__ == "__main__":
    main()
