#!/usr/bin/env python3
"""Usage: same_as_unsharded.py UNSHARDED_DIR MERGED_DIR

Exit 0 when what `bngcert merge` wrote equals what the unsharded run (same
options) wrote: certificate.json and report.json field by field, except what
may differ — timing (started_utc, generated_utc, duration_s), threads (jobs),
the "sharding" member the merge adds to each run, and the certificate's
digest (it covers those) — and every file of reproducers/ byte for byte.
Prints every difference and exits 1 otherwise.
"""
import filecmp
import json
import os
import sys

IGNORED = {"started_utc", "generated_utc", "duration_s", "jobs", "sharding"}


def diff(a, b, path, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key in IGNORED or (path == "" and key == "digest"):
                continue
            where = f"{path}.{key}" if path else key
            if key not in a:
                out.append(f"{where}: only in the merged file")
            elif key not in b:
                out.append(f"{where}: missing from the merged file")
            else:
                diff(a[key], b[key], where, out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} items unsharded, {len(b)} merged")
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, f"{path}[{i}]", out)
    elif a != b or type(a) is not type(b):
        out.append(f"{path}: unsharded {json.dumps(a)}, merged {json.dumps(b)}")


def files_under(root):
    found = set()
    for d, _, names in os.walk(root):
        for n in names:
            found.add(os.path.relpath(os.path.join(d, n), root))
    return found


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    unsharded, merged = sys.argv[1], sys.argv[2]
    out = []
    for name in ("certificate.json", "report.json"):
        u, m = os.path.join(unsharded, name), os.path.join(merged, name)
        if not os.path.exists(u) and not os.path.exists(m):
            continue
        if not os.path.exists(u) or not os.path.exists(m):
            out.append(f"{name}: only in {'the merged' if os.path.exists(m) else 'the unsharded'} directory")
            continue
        with open(u) as f, open(m) as g:
            found = []
            diff(json.load(f), json.load(g), "", found)
        out += [f"{name}: {line}" for line in found]
    ur, mr = os.path.join(unsharded, "reproducers"), os.path.join(merged, "reproducers")
    uf, mf = files_under(ur), files_under(mr)
    out += [f"reproducers/{p}: missing from the merged directory" for p in sorted(uf - mf)]
    out += [f"reproducers/{p}: only in the merged directory" for p in sorted(mf - uf)]
    for p in sorted(uf & mf):
        if not filecmp.cmp(os.path.join(ur, p), os.path.join(mr, p), shallow=False):
            out.append(f"reproducers/{p}: differs")
    for line in out:
        print(line)
    if out:
        print(f"{len(out)} difference(s) between {unsharded} and {merged}")
        sys.exit(1)
    verdict = "?"
    cert = os.path.join(merged, "certificate.json")
    if os.path.exists(cert):
        with open(cert) as f:
            verdict = json.load(f).get("verdict")
    print(f"same as unsharded (certificate, report, {len(mf)} reproducer files; verdict {verdict}): {merged}")


if __name__ == "__main__":
    main()
