#!/usr/bin/env python3
"""Checks a suite file written by TypedDefaults with a parser that is not CoreFoundation's.

Usage: check-suite-file.py FILE

FILE holds every DefaultsProbe round-trip case (`DefaultsProbe write SUITE CASE` for each
case `DefaultsProbe list` prints). Python's plistlib must read it, and every string, number and
date below must come back exactly.
"""
import datetime
import math
import plistlib
import sys

path = sys.argv[1]
with open(path, "rb") as file:
    data = file.read()
suite = plistlib.loads(data)
print(f"{path}: {'binary' if data.startswith(b'bplist00') else 'XML'}, {len(suite)} keys")

expected = {
    "string.0": "",
    "string.2": "emoji 👩\u200d👩\u200d👧\u200d👦🇺🇦 ✓",
    "string.3": "nul\x00inside",
    "string.4": "controls \x01\x08\x1b\r\n\t end",
    "string.5": 'xml <tag attr="v"> & ]]>',
    "string.6": "0123456789abcdef" * 65_536,
    "nsString.0": "text \x01 ✓",
    "int.0": -(2**63), "int.1": 2**63 - 1, "int.4": 42,
    "uint64.1": 2**64 - 1, "uint64.2": 2**63, "nsNumber.2": 2**64 - 1,
    "int8.0": -128, "uint16.1": 65_535, "uint32.1": 4_294_967_295,
    "bool.0": True, "bool.1": False, "nsNumber.0": True,
    "double.0": 0.1, "double.3": 1.0000000000000002, "double.4": 5e-324,
    "double.5": 1.7976931348623157e308, "double.6": math.inf, "double.7": -math.inf,
    "float.0": 0.10000000149011612,
    # Dates as @UserDefault stores them on Linux (seconds since 2001, a Double), and as
    # Foundation stores a Date inside a dictionary: an exact date.
    "date.0": 1_234_567_890.125, "date.1": -978_307_200.5,
    "nsDictionary.0": {"date": datetime.datetime(2001, 1, 1, 0, 0, 7), "flag": False, "list": [1, 2]},
    "data.1": b"\x00\xff\x00",
    "url.0": "https://user@example.com:8443/p/q?a=1&b=%20x#frag",
    "nestedDictionary.0": {
        "empty": [], "mixed": ["music", {"__TypedDefaults.nil": 0}, "voice"],
        "onlyNil": [{"__TypedDefaults.nil": 0}],
    },
}
failures = []
for key, value in expected.items():
    if key not in suite:
        failures.append(f"{key}: missing")
    elif suite[key] != value or type(suite[key]) is not type(value):
        failures.append(f"{key}: expected {value!r:.80}, read {suite[key]!r:.80}")
if not (isinstance(suite.get("double.8"), float) and math.isnan(suite["double.8"])):
    failures.append("double.8: expected nan")
deepest = suite.get("deepestNesting.0")
for _ in range(250):
    deepest = deepest[0] if isinstance(deepest, list) and len(deepest) == 1 else None
if deepest != 1:
    failures.append("deepestNesting.0: expected 1 inside 250 arrays")
if suite.get("data.2") != bytes(i % 256 for i in range(1_048_576)):
    failures.append("data.2: the megabyte of bytes differs")

for failure in failures:
    print(failure, file=sys.stderr)
sys.exit(1 if failures else 0)
