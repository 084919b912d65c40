#!/bin/bash
# Instructions per read and write, counted by callgrind: each operation is repeated N times and
# the run that does nothing (with the same kind of store) is subtracted. Build first:
#     swift build --package-path Benchmarks -c release --product instruction-counts
# then, from the repository root:
#     bash Benchmarks/count-instructions.sh [N] [BINARY]
set -euo pipefail
count=${1:-100000}
binary=${2:-Benchmarks/.build/release/instruction-counts}
export XDG_CONFIG_HOME=${XDG_CONFIG_HOME:-$(mktemp -d)}
# One hash seed for every run: with a seed per process, hashing takes more or fewer probes from
# run to run, and a Codable write moved by some 140 instructions.
export SWIFT_DETERMINISTIC_HASHING=1
instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" "$1" "$count" 2>&1 >/dev/null |
        sed -n 's/.*Collected : *//p' | tr -d ' ,'
}
operations=("nothing" "nothing, in memory" "read Int: class property" "read Int: struct property" \
    "read Int: store[.key]" "read Int: @UserDefault(.key)" "read Double: Setting" "read Int: wrapper held (floor)" \
    "read Bool: class property" "read Date: class property" "read UUID: class property" "read enum: class property" \
    "read Int?: class property" "read String: class property" "read long String: class property" "read URL: class property" \
    "read missing String?: class property" "read Codable: class property" \
    "write Int: class property" "write Int: store[.key]" "write Int: class property, in memory" "write String: class property" \
    "write Codable: class property")
# One valgrind per core at a time: a run counts its own process's instructions, which another
# run beside it does not change, and each writes a suite named by its own process.
# A run that fails leaves its status in its file in place of a count, so the check below names
# the operation, whichever run fails first.
counts=$(mktemp -d)
# On exit, each job's whole tree: a job is a subshell whose valgrind outlives it if only the
# subshell is killed. Stopped first, so that none starts a process while its children are listed
# (from /proc, which needs no package). The jobs are then waited for, quietly.
end_tree() {
    kill -STOP "$1" 2>/dev/null || return 0
    local child
    for child in $(cat /proc/"$1"/task/*/children 2>/dev/null); do end_tree "$child"; done
    kill -KILL "$1" 2>/dev/null || true
}
trap '{ for job in $(jobs -p); do end_tree "$job"; done; wait; } 2>/dev/null; rm -rf "$counts"' EXIT
running=0
for index in "${!operations[@]}"; do
    { instructions "${operations[$index]}" >"$counts/$index" || echo "failed: $?" >>"$counts/$index"; } &
    running=$((running + 1))
    if [ "$running" -ge "$(nproc)" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait
for index in "${!operations[@]}"; do
    [[ $(<"$counts/$index") =~ ^[0-9]+$ ]] ||
        { echo "callgrind counted nothing for ${operations[$index]}: $(<"$counts/$index")" >&2; exit 1; }
done
nothing=$(<"$counts/0")
nothing_in_memory=$(<"$counts/1")
echo "| Operation | instructions |"
echo "|---|---:|"
for index in "${!operations[@]}"; do
    [ "$index" -ge 2 ] || continue
    operation=${operations[$index]}
    baseline=$nothing
    [[ $operation == *", in memory" ]] && baseline=$nothing_in_memory
    echo "| $operation | $(( ($(<"$counts/$index") - baseline) / count )) |"
done
