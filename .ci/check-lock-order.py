#!/usr/bin/env python3
"""Checks a release build's machine code for a value retained after the suite's lock is given back.

A read under the suite's lock copies a value and retains what it holds; the compiler moves a
retain down past any store, and SuiteLock.unlock() is an inlined atomic store, so without the
fence that unlock() puts before it the retain can land after the lock is free, when a writer may
already have freed the object. This finds every inlined unlock (x86-64: `movl $0x0,0x10(%reg)`,
the lock word, followed by a load of `0x14(%reg)`, the sleeper count) and fails if a retain is
called after it before the next branch. A plain release build only: AddressSanitizer's checks
put a branch right after the store, where this stops, so on such a build it sees nothing. A
retain the compiler moved further, past a branch, is for `reads-under-writes` (Benchmarks) to
find at run time.

Usage: python3 .ci/check-lock-order.py BINARY
"""
import platform
import re
import subprocess
import sys

if platform.machine() not in ("x86_64", "AMD64"):
    print(f"check-lock-order: reads x86-64 code only; skipped on {platform.machine()}")
    sys.exit(0)
binary = sys.argv[1]
code = subprocess.run(["objdump", "-d", "--no-show-raw-insn", binary], capture_output=True, text=True, check=True)
lines = code.stdout.split("\n")
function = None
unlocks = 0
late = []
for index, line in enumerate(lines):
    header = re.match(r"^[0-9a-f]+ <(.*)>:", line)
    if header:
        function = header.group(1)
        continue
    store = re.search(r"movl\s+\$0x0,0x10\((%\w+)\)", line)
    if not store or not any(f"0x14({store.group(1)})" in later for later in lines[index + 1 : index + 4]):
        continue
    unlocks += 1
    for later in lines[index + 1 : index + 16]:
        if re.search(r"\s(j\w+|ret)\b", later):
            break
        if re.search(r"\scall\s.*[Rr]etain", later):
            late.append(f"{function}: {later.strip()}")
            break
# The instruction-counts binary inlines the lock in some 170 places; far fewer means the
# pattern above no longer matches how unlock() is compiled, and the check would pass blind.
if unlocks < 20:
    print(f"check-lock-order: found {unlocks} inlined unlocks in {binary}; update the pattern", file=sys.stderr)
    sys.exit(1)
if late:
    print("check-lock-order: retained after the suite's lock was given back:", file=sys.stderr)
    print("\n".join(late), file=sys.stderr)
    sys.exit(1)
print(f"check-lock-order: {unlocks} inlined unlocks, no retain after one")
