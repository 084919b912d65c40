#!/usr/bin/env python3
"""How soon a running observer sees a write made by another process.

Starts `typed-defaults watch` (a program observing the suite through the engine), then runs
`typed-defaults write` 30 times, and prints how long each change took to reach the watcher's
output: from the writer's exit, and from its launch. Then, with an administrator's folder in
`XDG_CONFIG_DIRS`, writes and removes the suite's locks file 30 times, and prints how long each
took to reach the watcher, from the file's rename into place or its removal. Build the tool first:

    swift build --package-path Tools -c release
    python3 Tools/measure-watch-latency.py [path to typed-defaults]
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
tool = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, ".build", "release", "typed-defaults")
with tempfile.TemporaryDirectory() as folder:
    env = dict(os.environ, XDG_CONFIG_HOME=folder)
    subprocess.run([tool, "write", "latency", "k", "--int", "0"], env=env, check=True)
    watcher = subprocess.Popen([tool, "watch", "latency"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    watcher.stderr.readline()  # "Watching …": observing from here on
    after_exit, after_launch = [], []
    for value in range(1, 31):
        launched = time.monotonic()
        subprocess.run([tool, "write", "latency", "k", "--int", str(value)], env=env, check=True)
        exited = time.monotonic()
        line = watcher.stdout.readline().decode().strip()
        seen = time.monotonic()
        if line != f"k: {value}":
            sys.exit(f"the watcher printed {line!r}, not k: {value}")
        after_exit.append((seen - exited) * 1000)
        after_launch.append((seen - launched) * 1000)
        time.sleep(0.05)
    watcher.terminate()
    watcher.wait()

    # An administrator's lock, appearing and going: the value in force flips between the
    # administrator's default and the user's value.
    admin = os.path.join(folder, "admin")
    os.makedirs(admin)
    with open(os.path.join(admin, "latency.plist"), "w") as defaults:
        defaults.write("{ k = -1; }")
    locks = os.path.join(admin, "latency.locks")
    watcher = subprocess.Popen(
        [tool, "watch", "latency"], env=dict(env, XDG_CONFIG_DIRS=admin), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    watcher.stderr.readline()
    after_lock = []
    for round in range(30):
        if round % 2 == 0:
            with open(locks + ".new", "w") as new:
                new.write("k\n")
            changed = time.monotonic()
            os.rename(locks + ".new", locks)
            expected = f"k: -1 (locked by {locks})"
        else:
            changed = time.monotonic()
            os.remove(locks)
            expected = "k: 30"
        line = watcher.stdout.readline().decode().strip()
        seen = time.monotonic()
        if line != expected:
            sys.exit(f"the watcher printed {line!r}, not {expected}")
        after_lock.append((seen - changed) * 1000)
        time.sleep(0.05)
    watcher.terminate()
    watcher.wait()

def summary(values):
    return f"median {statistics.median(values):.1f} ms, max {max(values):.1f} ms"

print("from the writer's exit to the watcher's line:", summary(after_exit))
print("from the writer's launch (process start included):", summary(after_launch))
print("from the locks file's change to the watcher's line:", summary(after_lock))
