#!/usr/bin/env bash
# Counts the public declarations of a library's sources, one per line that declares one (a
# deprecated declaration is not counted): bash .ci/count-public.sh FOLDER. The core's count is
# what an app developer reads; the api stage prints it and fails if it rises above its ceiling.
set -euo pipefail
find "$1" -name '*.swift' -print0 | xargs -0 perl -ne 'BEGIN { $n = 0; $d = 0 }
  if (/\@available\(.*deprecated/) { $d = 1; next }
  if (/^\s*((@[A-Za-z_]+(\([^)]*\))?|final|static|nonisolated|override|mutating|convenience|required|indirect)\s+)*(public|open)\s/) { $n++ unless $d; $d = 0; next }
  next if /^\s*(@|\/\/\/)/; $d = 0; END { print "$n\n" }'
