#!/usr/bin/env bash
# How long `typed-defaults read SUITE KEY` takes as a whole process, beside a minimal Foundation
# program that reads the same key with plain UserDefaults (startup-baseline), on a suite of 10
# keys: both built in release, measured in the same run by hyperfine (Debian's `hyperfine`).
#
#     bash Benchmarks/startup.sh [RUNS]      # 200 runs each unless given
#
# Prints hyperfine's summary, then each median and their ratio. The tool is the one
# `bash Tools/install.sh` installs, built into a scratch folder here; timings are not judged.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-200}"
command -v hyperfine >/dev/null || { echo "startup.sh needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

bash Tools/install.sh "$scratch/bin" >/dev/null
swift build --package-path Benchmarks -c release --product startup-baseline
baseline="$(swift build --package-path Benchmarks -c release --show-bin-path)/startup-baseline"
tool="$scratch/bin/typed-defaults"

# A suite of 10 keys, written by the tool itself, in a preferences folder of its own.
export XDG_CONFIG_HOME="$scratch/config"
mkdir -p "$XDG_CONFIG_HOME"
suite=dev.typeddefaults.startup
for index in 0 1 2 3 4 5 6 7 8 9; do
    "$tool" write "$suite" "key$index" --int "$((index * 1000))"
done
[ "$("$tool" read "$suite" key7)" = 7000 ] || { echo "typed-defaults read printed the wrong value" >&2; exit 1; }
[ "$("$baseline" "$suite" key7)" = 7000 ] || { echo "startup-baseline printed the wrong value" >&2; exit 1; }

hyperfine --shell=none --warmup 20 --runs "$runs" --export-json "$scratch/times.json" \
    -n "typed-defaults read" "$tool read $suite key7" -n "UserDefaults (startup-baseline)" "$baseline $suite key7"
python3 - "$scratch/times.json" <<'PYTHON'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
medians = [statistics.median(result["times"]) * 1000 for result in results]
for result, median in zip(results, medians):
    print(f"{result['command']}: median {median:.1f} ms")
print(f"ratio: {medians[0] / medians[1]:.2f}x")
PYTHON
