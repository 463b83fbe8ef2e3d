#!/usr/bin/env python3
"""What `make test` shows of `swift test`: reads its output on stdin, writes
all of it to the log named by the first argument, and prints only what a
person needs: errors of the build, each failing expectation with its
message and the lines that explain it (as they come), each skipped test and
why, and the closing line of the run. Python 3 standard library only."""

import re
import sys

def main():
    log = open(sys.argv[1], "w")
    failing = None
    failures = 0
    for line in sys.stdin:
        log.write(line)
        text = line.rstrip("\n")
        if failing is not None and text.startswith("↳"):
            print(text)
            continue
        failing = None
        if " recorded an issue" in text and text.startswith("✘ Test"):
            failures += 1
            # The message first, then where: "File.swift:12:3: Expectation failed: ...".
            where, _, message = text.partition(" at ")
            print(f"FAIL {message}\n     in {where[len('✘ Test '):].replace(' recorded an issue', '')}")
            failing = text
        elif re.search(r"(^|\s)error: ", text) or text.startswith("➜ Test") and "skipped" in text:
            print(text)
        elif re.match(r"^[✔✘] Test run with ", text):
            print(text)
    log.close()
    if failures:
        print(f"{failures} failing expectations; the whole output is in {sys.argv[1]}")


if __name__ == "__main__":
    main()
