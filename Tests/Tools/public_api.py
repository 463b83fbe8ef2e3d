#!/usr/bin/env python3
"""SpeciesKit's public API, from its symbol graph, against a baseline.

    public_api.py check BASELINE SYMBOL_GRAPH_DIR VERSION
    public_api.py write BASELINE SYMBOL_GRAPH_DIR VERSION

The API is one line a public declaration, `Path.to.name: declaration`, and
one a conformance, `Type: conforms to Protocol`, sorted; the baseline is
those lines after a first one, `// SpeciesKit VERSION`. `check` fails when
a line of the baseline is gone (a declaration removed, made internal, or
changed), when lines were added and the baseline not rewritten, when the
baseline is of another version than VERSION, or when a public declaration
written in SpeciesKit's sources has no documentation comment (DocC would
show its page without a summary). `write` rewrites the baseline,
but refuses to drop or change a line under the baseline's own version: the
version must move with it. Python 3 standard library only.
"""

import glob
import json
import os
import sys


def api(folder):
    """The lines of the public API in the symbol graphs of `folder`, and the
    names of the declarations in the sources that have no doc comment."""
    lines = set()
    undocumented = set()
    for path in sorted(glob.glob(os.path.join(folder, "SpeciesKit*.symbols.json"))):
        with open(path) as file:
            graph = json.load(file)
        names = {}
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            name = ".".join(symbol["pathComponents"])
            names[symbol["identifier"]["precise"]] = name
            declaration = "".join(fragment["spelling"] for fragment in symbol.get("declarationFragments", []))
            lines.add(f"{name}: {' '.join(declaration.split())}")
            # Those without a location are synthesized, or a protocol's own.
            if "location" in symbol and not symbol.get("docComment", {}).get("lines"):
                undocumented.add(name)
        for relationship in graph["relationships"]:
            if relationship["kind"] == "conformsTo" and relationship["source"] in names:
                target = relationship.get("targetFallback") or relationship["target"]
                lines.add(f"{names[relationship['source']]}: conforms to {target}")
    return sorted(lines), sorted(undocumented)


def read_baseline(path):
    with open(path) as file:
        first, *rest = file.read().splitlines()
    return first.removeprefix("// SpeciesKit "), rest


def main():
    action, baseline, folder, version = sys.argv[1:5]
    current, undocumented = api(folder)
    if not current:
        sys.exit(f"public_api: no symbol graph of SpeciesKit in {folder}")
    recorded_version, recorded = read_baseline(baseline) if os.path.exists(baseline) else (None, [])
    gone = sorted(set(recorded) - set(current))
    added = sorted(set(current) - set(recorded))
    if action == "write":
        if gone and recorded_version == version:
            sys.exit("public_api: the public API lost or changed these under version " + version
                     + " (raise the version in Sources/SpeciesKit/API/Version.swift first):\n  - " + "\n  - ".join(gone))
        with open(baseline, "w") as file:
            file.write(f"// SpeciesKit {version}\n" + "".join(line + "\n" for line in current))
        print(f"public_api: wrote {baseline}: {len(current)} lines for version {version}")
        return
    problems = []
    if gone:
        problems.append("removed or changed:\n  - " + "\n  - ".join(gone))
    if added:
        problems.append("added, not in the baseline:\n  + " + "\n  + ".join(added))
    if recorded_version != version:
        problems.append(f"the baseline is of version {recorded_version}, species of {version}")
    if undocumented:
        problems.append("public, with no documentation comment:\n  ? " + "\n  ? ".join(undocumented))
    if problems:
        sys.exit(f"public_api: SpeciesKit's public API is not {baseline}'s\n" + "\n".join(problems)
                 + "\nIf that is meant, raise the version where a line was removed or changed, then run make api-baseline.")
    print(f"public_api: SpeciesKit's public API is the baseline's: {len(current)} lines, version {version}")


if __name__ == "__main__":
    main()
