#!/usr/bin/env bash
# The memory a process holds once it has opened a suite of many String keys, read one key and
# written one (committed), through TypedDefaults and through plain UserDefaults, each in fresh
# processes that start from the same file, as TypedDefaults writes it (binary):
#
#     bash Benchmarks/memory.sh [KEYS] [RUNS]    # 100000 keys, 5 runs each unless given
#
# Prints the median peak (VmHWM) and current (VmRSS) resident set of each, in MB, and the
# ratios. The program is Benchmarks/Sources/memory-footprint, built in release.
set -euo pipefail
cd "$(dirname "$0")/.."
keys="${1:-100000}"
runs="${2:-5}"
swift build --package-path Benchmarks -c release --product memory-footprint >&2
program="$(swift build --package-path Benchmarks -c release --show-bin-path)/memory-footprint"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export XDG_CONFIG_HOME="$scratch/config"
mkdir -p "$XDG_CONFIG_HOME"
suite=dev.typeddefaults.memory
"$program" write "$suite" "$keys"
cp "$XDG_CONFIG_HOME/$suite.plist" "$scratch/pristine.plist"
for run in $(seq "$runs"); do
    for kind in typed plain; do
        # Each run opens the file as written: plain UserDefaults rewrites it (as XML) when it syncs.
        cp "$scratch/pristine.plist" "$XDG_CONFIG_HOME/$suite.plist"
        "$program" "$kind" "$suite"
    done
done | python3 -c '
import statistics, sys
rows = {}
for line in sys.stdin:
    kind, _, peak, _, now = line.split()
    rows.setdefault(kind, []).append((int(peak), int(now)))
def median(kind, index): return statistics.median(row[index] for row in rows[kind]) / 1024
print(f"| {sys.argv[1]} String keys | peak (VmHWM) | now (VmRSS) |")
print("|---|---|---|")
for kind, name in (("typed", "TypedDefaults"), ("plain", "plain UserDefaults")):
    print(f"| {name} | {median(kind, 0):.1f} MB | {median(kind, 1):.1f} MB |")
ratios = [median("typed", index) / median("plain", index) for index in (0, 1)]
print(f"| ratio | {ratios[0]:.2f}x | {ratios[1]:.2f}x |")
' "$keys"
