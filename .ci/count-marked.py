#!/usr/bin/env python3
"""Counts, from a `swift test` log and `swift test list`, the tests that ran and those marked
as facts of the plist files alone (`.plistFilesOnly(reason)`), grouped by reason.

A marked suite prints one skip line for all of its tests: its tests are counted from the list.
Usage: count-marked.py LOG LIST
"""
import collections
import re
import sys

MARK = "plist files only: "
log = open(sys.argv[1], encoding="utf-8", errors="replace").read()
listed = [line.strip() for line in open(sys.argv[2], encoding="utf-8") if "/" in line]
per_suite = collections.Counter(line.split("/")[0].split(".")[-1] for line in listed)

marked = collections.Counter()
skipped = 0
for kind, name, reason in re.findall(r'^➜ (Suite|Test) (\S+) skipped(?:\.|: "(.*)")$', log, re.MULTILINE):
    count = per_suite[name] if kind == "Suite" else 1
    skipped += count
    if reason.startswith(MARK):
        marked[reason[len(MARK):]] += count

print(f"{len(listed) - skipped} of {len(listed)} tests ran with every named suite kept through UserDefaults")
print(f"{sum(marked.values())} marked as facts of the plist files alone:")
for reason, count in marked.most_common():
    print(f"  {count:3}  {reason}")
print(f"{skipped - sum(marked.values())} skipped for other reasons (as in the test stage)")
if not marked:
    sys.exit("no test was marked: the log's form changed, or the variable was not honoured")
