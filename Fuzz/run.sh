#!/usr/bin/env bash
# Builds the fuzz targets and runs each for SECONDS (30 unless given), two at a time, one per
# core. Exits non-zero on any finding, and prints where the input that broke a property (or
# crashed, took over 2 s or over 2 GB) was saved: Fuzz/findings/<target>-<kind>-<sha1>, and
# the target's whole log beside it: Fuzz/findings/<target>.log.
#     bash Fuzz/run.sh 30                 every target
#     bash Fuzz/run.sh 600 json date      some of them (fuzz-json, fuzz-date)
#     bash Fuzz/run.sh --build            builds them, and runs none
# Each run starts from the committed corpus (Corpus/<target>), read only; what it finds new
# goes to a scratch folder, or to the folder FUZZ_CORPUS_OUT names (one subfolder per target).
# Replay a finding: Fuzz/.build/release/fuzz-<target> Fuzz/findings/<file>
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-30}"
shift || true
build_only=""
if [ "$seconds" = --build ]; then build_only=1; fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=()
    for folder in Corpus/*/; do targets+=("$(basename "$folder")"); done
fi

# Release (measured: Fuzz/README.md, "How they are built"); lld links them (gold crashed linking
# one, here).
flags=(-c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing -Xswiftc -use-ld=lld)
# Leaks are not findings (the Swift runtime keeps caches for the process); Swift's own crash
# backtracer would only delay libFuzzer's report.
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" SWIFT_BACKTRACE="enable=no"
findings="$PWD/findings"
mkdir -p "$findings"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

start=$(date +%s)
if ! nice -n 10 swift build "${flags[@]}" >"$scratch/build.log" 2>&1; then
    cat "$scratch/build.log"
    echo "the fuzz targets did not build" >&2
    exit 1
fi
# The linker warns "Cannot export local symbol '__asan_…'" for every target: harmless.
grep -v "Cannot export local symbol '__asan" "$scratch/build.log" | tail -3
bin="$(swift build "${flags[@]}" --show-bin-path)"
echo "built in $(($(date +%s) - start)) s"
[ -z "$build_only" ] || exit 0

# One target: its last status line on success; on a finding, the end of its log and the file.
run() {
    local target="$1" corpus="${FUZZ_CORPUS_OUT:-$scratch}/$1" log="$scratch/$1.log"
    mkdir -p "$corpus"
    if nice -n 10 "$bin/fuzz-$target" "$corpus" "Corpus/$target" -max_total_time="$seconds" -timeout=2 \
        -rss_limit_mb=2048 -detect_leaks=0 -print_final_stats=1 -artifact_prefix="$findings/$target-" \
        >"$log" 2>&1; then
        local status runs
        status="$(grep -E '^#[0-9]+' "$log" | tail -1 | sed -E 's/^#([0-9]+)[[:space:]]+[A-Z]+[[:space:]]+//')"
        runs="$(sed -n 's/^stat::number_of_executed_units: //p' "$log")"
        echo "ok      $target: $runs runs, $status"
    else
        echo "FAILED  $target (log: the lines below)"
        grep -v "Cannot export local symbol" "$log" | tail -40 | sed 's/^/    /'
        grep -h "Test unit written to" "$log" | sed "s/^/    /" || true
        cp "$log" "$findings/$target.log"
        echo "    the whole log: $findings/$target.log"
        echo "$target" >>"$scratch/failed"
    fi
}

for target in "${targets[@]}"; do
    [ -d "Corpus/$target" ] || { echo "no target $target (no Corpus/$target)" >&2; exit 1; }
done
running=0
for target in "${targets[@]}"; do
    run "$target" &
    running=$((running + 1))
    if [ "$running" -ge 2 ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait
echo "total $(($(date +%s) - start)) s"
if [ -s "$scratch/failed" ]; then
    echo "findings in: $(tr '\n' ' ' <"$scratch/failed")— inputs saved in $findings" >&2
    exit 1
fi
