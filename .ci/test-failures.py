#!/usr/bin/env python3
"""Prints, last, what a failed `swift test` log says about the failure.

CI shows the end of its output, and a crash's backtrace of every thread pushes the crash
itself (the fatal error's message, the crashed thread's frames) and the names of the tests
that were running out of view. Usage: test-failures.py LOG
"""
import re
import sys

text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
lines = text.splitlines()

print("==== what failed ====")
for line in lines:
    if "Fatal error" in line or "fatal error:" in line or "SWIFT TASK CONTINUATION MISUSE" in line:
        print(line)
for line in lines:
    if line.startswith("✘"):
        print(line[:400])

# The crashed thread's first frames.
for index, line in enumerate(lines):
    if re.match(r"^Thread \d+ .*crashed:", line) or line.startswith("*** Program crashed"):
        print("\n".join(lines[index : index + 40]))
        break

# Tests that started and never ended: running when the process stopped.
name = r"(\w+\([^)]*\))"
started = re.findall(r"^◇ Test " + name + r" started\.$", text, re.MULTILINE)
ended = set(re.findall(r"^[✔✘] Test " + name + r" .*(?:passed|failed) after", text, re.MULTILINE))
running = [test for test in started if test not in ended]
if running:
    print("running when the test process stopped:")
    for name in running:
        print("  " + name)
