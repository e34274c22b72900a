#!/usr/bin/env python3
"""Lists C and C++ functions longer than a limit (issue 23: none over 80 lines in tools/).

    function_lengths.py [--max N] PATH...      exit 1 when a function is longer than N

A function is counted from the first line of its head to its closing brace. The scan
strips comments and string literals, treats namespace and extern "C" braces as
transparent, and measures every function defined at namespace scope (which is where
clang-format's house style puts them) - member functions defined inside a class body are
measured with their class only if the class itself is a function's local type.
"""
import argparse
import pathlib
import re
import sys

SOURCE_SUFFIXES = {".c", ".h", ".cpp", ".hpp", ".cc"}
TRANSPARENT = re.compile(r'^\s*(namespace\b[^(]*|extern\s+"C(\+\+)?"\s*)$')
NOT_A_FUNCTION = re.compile(r"^\s*(template\s*<.*>\s*)?(struct|class|union|enum)\b|=\s*$")


def strip_comments_and_strings(text: str) -> str:
    """Blanks comments and literals but keeps newlines, so line numbers survive."""
    pattern = re.compile(r'//[^\n]*|/\*.*?\*/|R"(\w*)\(.*?\)\1"|"(?:\\.|[^"\\\n])*"|' r"'(?:\\.|[^'\\\n])*'",
                         re.S)
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def long_functions(path: pathlib.Path, limit: int):
    """Yields (first line, length, name) of each function longer than limit lines."""
    text = strip_comments_and_strings(path.read_text(encoding="utf-8", errors="replace"))
    depth = 0  # braces of functions and types, not of namespaces
    transparent = []  # per open brace: True when it is a namespace's
    head, head_line = "", None  # the declaration being read at depth 0
    start, name = None, ""
    continued = False  # inside a preprocessor line that ends with a backslash
    for number, line in enumerate(text.split("\n"), start=1):
        directive = continued or line.lstrip().startswith("#")
        continued = directive and line.rstrip().endswith("\\")
        if directive:
            continue
        for ch in line:
            if ch == "{":
                if depth == 0 and TRANSPARENT.match(head):
                    transparent.append(True)
                else:
                    if depth == 0 and "(" in head and not NOT_A_FUNCTION.search(head):
                        start = head_line
                        names = re.findall(r"([\w:~]+)\s*\(", head)
                        name = names[0] if names else "?"
                    transparent.append(False)
                    depth += 1
                head, head_line = "", None
            elif ch == "}":
                if transparent and transparent.pop():
                    continue
                depth -= 1
                if depth == 0:
                    if start is not None and number - start + 1 > limit:
                        yield start, number - start + 1, name
                    start = None
                head, head_line = "", None
            elif depth == 0:
                if ch == ";":
                    head, head_line = "", None
                    continue
                if head_line is None and not ch.isspace():
                    head_line = number
                head += ch
        if depth == 0:
            head += " "


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max", type=int, default=80, help="longest allowed function, in lines")
    parser.add_argument("paths", nargs="+", type=pathlib.Path)
    args = parser.parse_args()
    files = []
    for p in args.paths:
        if not p.exists():
            print(f"function_lengths: {p}: no such file or folder", file=sys.stderr)
            return 2
        files += [p] if p.is_file() else sorted(f for f in p.rglob("*") if f.suffix in SOURCE_SUFFIXES)
    found = [(str(f), *hit) for f in files for hit in long_functions(f, args.max)]
    for file, line, length, name in found:
        print(f"{file}:{line}: {name} is {length} lines (limit {args.max})")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
