#!/usr/bin/env python3
"""Writes the committed seed corpus, Corpus/<target>/: what this library, corelibs Foundation,
NSKeyedArchiver and the tool's export write (the fuzz-seeds program, built by run.sh), what
Python's plistlib writes, and a few hand-made edge cases. Run from anywhere after a build:
    python3 Fuzz/make-corpus.py
"""
import datetime
import os
import plistlib
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
corpus = os.path.join(here, "Corpus")


def seed(target, name, data):
    folder = os.path.join(corpus, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as file:
        file.write(data if isinstance(data, bytes) else data.encode())


# This library, corelibs and the tool: the fuzz-seeds program, in a preferences folder of its own.
binary = subprocess.run(
    ["swift", "build", "-c", "release", "-Xswiftc", "-sanitize=fuzzer,address", "-Xswiftc", "-enable-testing", "-Xswiftc", "-use-ld=lld",
     "--show-bin-path"], cwd=here, check=True, capture_output=True, text=True).stdout.strip()
with tempfile.TemporaryDirectory() as preferences:
    environment = dict(os.environ, XDG_CONFIG_HOME=preferences, ASAN_OPTIONS="detect_leaks=0")
    subprocess.run([os.path.join(binary, "fuzz-seeds"), corpus], check=True, env=environment)

# Python's plistlib, both formats; a list that holds one list twice (shared objects).
values = {
    "caf\u00e9": "caf\u00e9", "cafe\u0301": "cafe\u0301", "count": -(2**63), "big": 2**64 - 1, "ratio": 0.1,
    "when": datetime.datetime(2026, 11, 23, 10, 0, 0), "blob": b"\x00\xff", "flag": False,
    "list": ["a", 2, [], {}], "nested": {"a": {"b": "\U0001F642"}},
}
seed("binary-plist", "plistlib.plist", plistlib.dumps(values, fmt=plistlib.FMT_BINARY, sort_keys=False))
seed("suite-file", "plistlib-binary.plist", plistlib.dumps(values, fmt=plistlib.FMT_BINARY))
seed("xml-plist", "plistlib.plist", plistlib.dumps(values, fmt=plistlib.FMT_XML))
seed("import", "plistlib.plist", plistlib.dumps(values, fmt=plistlib.FMT_XML))
shared = [1]
for _ in range(6):
    shared = [shared, shared]
seed("binary-plist", "plistlib-shared.plist", plistlib.dumps(shared, fmt=plistlib.FMT_BINARY))
seed("keyed-archive", "plistlib-uid.plist", plistlib.dumps(
    {"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": plistlib.UID(1)},
     "$objects": ["$null", {"$class": plistlib.UID(2), "name": "x"},
                  {"$classname": "fuzz_keyed_archive.FuzzPalette", "$classes": ["fuzz_keyed_archive.FuzzPalette", "NSObject"]}]},
    fmt=plistlib.FMT_BINARY))

# Hand-made edges.
seed("xml-plist", "edges.plist", """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><!-- a comment --><dict>
<key>ctrl</key><string>\x01\x7f&lt;&amp;&#x1F642;&#233;<![CDATA[<raw>]]></string>
<key>hex</key><integer>-0x10</integer><key>nan</key><real>nan</real><key>inf</key><real>-infinity</real>
<key>bc</key><date>-028-12-03T06:13:20Z</date><key>far</key><date>10101-01-01T06:00:00Z</date>
<key>fraction</key><date>2026-11-23T10:00:00.125Z</date><key>data</key><data>AAEC
/w</data><key>empty</key><array/><key>t</key><true/><key/><string/></dict></plist>
""")
seed("xml-plist", "bare.plist", "<array><integer>18446744073709551615</integer><key>k</key></array>")
seed("openstep-plist", "dictionary.strings", """// a comment
{ name = "caf\\U00e9 \\"quoted\\" \\n\\101\\t"; bare = a_b$+/:.-1; data = <0fbd 77>;
  list = ( one, 'two', ( ), { } ); /* block */ surrogate = "\\ud83d\\ude42"; }
""")
seed("openstep-plist", "strings-file.strings", '"key" = "value";\nother = "\\U00e9";\n')
seed("openstep-plist", "array.plist", '( a, "b\\\\c", <00ff>, { k = v; } )')
seed("import", "openstep.strings", '{ name = Ada; theme = dark; }')
seed("import", "normalization.json", '{"caf\\u00e9":"cafe\\u0301","cafe\\u0301":"caf\\u00e9","ratio":0.0}')
seed("import", "special.json", '{"$dictionary":{"$date":1.5},"n":null,"r":{"$real":"-inf"},"d":{"$data":"AAE="}}')
seed("json", "specials.json",
     '[{"$date":"-0044-03-15T12:00:00Z"},{"$date":-1e-06},{"$real":"nan"},{"$data":""},'
     '{"$dictionary":{"$real":1}},null,-0.0,1E+400,18446744073709551615,"\\ud83d\\ude42\\u0000\\/"]')
seed("json", "deep.json", "[" * 249 + "]" * 249)
for index, text in enumerate(["2026-11-23", "2026-11-23T10:00:00+02:00", "2026-11-23 10:00:00 +0000",
                              "-0044-03-15T12:00:00.000000001Z", "+999999-12-31T23:59:59.9999999999Z",
                              "0000-02-29T00:00:00-2359", "2026-11-23T10:00:00.5+0530"]):
    seed("date", f"edge-{index}.txt", text)
seed("date", "bits-nan.bin", bytes([0x7F, 0xF8, 0, 0, 0, 0, 0, 1]))
seed("schema", "minimal.schema.json",
     '{"format":"typed-defaults schema","version":1,"suite":"s","keys":[{"name":"k","swiftType":"Int",'
     '"title":"","info":"","valueType":{"kind":"optional","wrapped":{"kind":"integer","lowest":-1,"highest":1}},'
     '"formattedDefault":"","options":[{"value":null,"title":"none"}],"future":true}]}')
seed("suite-file", "blank.plist", " \n\t")
seed("suite-file", "bom.plist", b"\xef\xbb\xbf{ k = v; }")
seed("suite-file", "truncated.plist", plistlib.dumps(values, fmt=plistlib.FMT_BINARY)[:-9])
seed("postgres-rows", "edges.bin", b"caf\xc3\xa9\x00\"x\"\x00cafe\xcc\x81\x00[1,2.0,{\"$real\":\"nan\"}]\x00k\x00not json\x00")
