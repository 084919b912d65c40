#!/usr/bin/env python3
"""How soon another process sees a change of a suite: from the writer's commit to each of the
four ways a program hears of it, and from an administrator's locks file changing.

A writer (`change-latency-probe writer`, a `.immediate` store) commits each value of a key and
prints the CLOCK_MONOTONIC times at which its setter was called and returned, the file renamed
into place and its folder synced. The rename lands between the two, before the folder's sync,
so a watcher may hear it before the setter returns: a time from the return can be below zero,
and the time from the call bounds it from above. Then, one path at a time, a watcher in another
process hears it:

| path | what hears the change | when it is noted |
|---|---|---|
| `observer` | `DefaultsStore.observe` in another process (`change-latency-probe observer`) | in its callback |
| `watch` | `typed-defaults watch` | its line read from its standard output |
| `page` | the settings page's event stream (`typed-defaults-serve`, `GET /api/events`) | the event's line read from the socket |
| `provider` | the swift-configuration provider's `watchValue` (`change-latency-probe provider`) | in its update loop |
| `locks` | `typed-defaults watch`, an administrator's locks file renamed into place or removed | its line read, from the rename or removal |
| `watch-exit` | `typed-defaults watch`, from the exit of a `typed-defaults write` process | its line read, from the writer's exit |

Lines are read by a thread each, which notes the time as each arrives; every time is
CLOCK_MONOTONIC (Python's `time.monotonic_ns`), which the processes of a Linux machine share.
Prints a markdown table: the median and the worst of the changes, per path, from the change's
end (the setter's return, the locks file's rename or removal, the `write` process's exit) and
from its start (the setter's call, the `write` process's launch), against the target (median
at most 5 ms, worst at most 10 ms, from the end). Exits 1 when a change is not heard within 5 s, or
heard wrong; a missed target is only shown (timings belong to a quiet machine, not to CI).

Build the programs, then run it from the repository root (the probe and the page's server come
from the nested package of the provider's tests, every trait on):

    swift build --package-path Tools -c release --product typed-defaults
    swift build --package-path TestPackages/Configuration -c release --product change-latency-probe
    swift build --package-path TestPackages/Configuration -c release --product typed-defaults-serve
    python3 Benchmarks/change-latency.py \\
        --tool Tools/.build/release/typed-defaults \\
        --probe TestPackages/Configuration/.build/release/change-latency-probe \\
        --serve TestPackages/Configuration/.build/release/typed-defaults-serve

Options: `--changes N` (30 unless given), `--paths observer,watch,…` (every path unless given),
`--pause SECONDS` between changes (0.05 unless given).
"""
import argparse
import json
import os
import queue
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

PATHS = ["observer", "watch", "page", "provider", "locks", "watch-exit"]
TARGET_MEDIAN_MS = 5
TARGET_WORST_MS = 10
TIMEOUT = 5


def fail(message):
    sys.exit("change-latency: " + message)


class Lines:
    """The lines of a stream, each with the monotonic time at which it was read."""

    def __init__(self, stream):
        self.lines = queue.Queue()
        thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        thread.start()

    def _read(self, stream):
        for line in iter(stream.readline, b""):
            self.lines.put((time.monotonic_ns(), line.decode(errors="replace").rstrip("\r\n")))
        self.lines.put((time.monotonic_ns(), None))

    def next(self, what):
        try:
            arrived, line = self.lines.get(timeout=TIMEOUT)
        except queue.Empty:
            fail(f"no line from {what} within {TIMEOUT} s")
        if line is None:
            fail(f"{what} ended")
        return arrived, line


class Program:
    def __init__(self, arguments, env, stdin=False):
        self.process = subprocess.Popen(
            arguments, env=env, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE)
        self.stdout = Lines(self.process.stdout)
        self.stderr = Lines(self.process.stderr)

    def send(self, line):
        self.process.stdin.write((line + "\n").encode())
        self.process.stdin.flush()

    def stop(self):
        if self.process.stdin:
            self.process.stdin.close()
        self.process.terminate()
        self.process.wait(timeout=10)


class Writer(Program):
    """A `.immediate` store's setter: commits a value, tells when it returned."""

    def __init__(self, probe, suite, env):
        super().__init__([probe, "writer", suite], env, stdin=True)

    def commit(self, value):
        self.send(str(value))
        _, line = self.stdout.next("the writer")
        written, called, returned = line.split()
        if int(written) != value:
            fail(f"the writer printed {line!r} for {value}")
        return int(called), int(returned)


class PageEvents:
    """The settings page's event stream, read as a browser's EventSource reads it."""

    def __init__(self, serve, suite, env):
        self.server = Program([serve, suite], env)
        _, address = self.server.stdout.next("typed-defaults-serve")
        parsed = urllib.parse.urlparse(address)
        token = urllib.parse.parse_qs(parsed.query)["token"][0]
        self.socket = socket.create_connection(("127.0.0.1", parsed.port))
        self.socket.sendall(
            f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{parsed.port}\r\nAuthorization: Bearer {token}\r\n"
            "Accept: text/event-stream\r\n\r\n".encode())
        self.stream = self.socket.makefile("rb", buffering=0)
        self.lines = Lines(self.stream)
        while True:
            _, line = self.lines.next("the event stream")
            if line.startswith(": connected"):
                break

    def next_value(self):
        """The value of `k` in the next change event, and when its line arrived."""
        while True:
            arrived, line = self.lines.next("the event stream")
            if not line.startswith("data: "):
                continue  # the chunks' sizes, the event's name, blank lines, comments
            row = json.loads(line[len("data: "):])
            if row.get("key") != "k":
                continue
            return arrived, row

    def stop(self):
        self.socket.close()
        self.server.stop()


def shown_value(row):
    """The value a page's row shows for `k`: its `value` member, as the page's script reads it."""
    value = row.get("value")
    if isinstance(value, dict):
        value = value.get("value", value)
    return value


def since(change, seen):
    """Milliseconds from a change's end (and from its start) to the moment it was seen."""
    start, end = change
    return (seen - end) / 1e6, (seen - start) / 1e6


def measure(path, arguments, folder):
    env = dict(os.environ, XDG_CONFIG_HOME=folder)
    suite = "latency-" + path
    writer = Writer(arguments.probe, suite, env)
    writer.commit(0)
    latencies = []
    try:
        if path in ("observer", "provider"):
            watcher = Program([arguments.probe, path, suite], env)
            if watcher.stdout.next(path)[1] != "ready":
                fail(f"the {path} did not say it was ready")
            for value in range(1, arguments.changes + 1):
                committed = writer.commit(value)
                _, line = watcher.stdout.next(path)
                seen_value, seen = line.split()
                if int(seen_value) != value:
                    fail(f"the {path} printed {line!r}, not {value}")
                latencies.append(since(committed, int(seen)))
                time.sleep(arguments.pause)
            watcher.stop()
        elif path == "watch":
            watcher = Program([arguments.tool, "watch", suite], env)
            watcher.stderr.next("typed-defaults watch")  # "Watching …": observing from here on
            for value in range(1, arguments.changes + 1):
                committed = writer.commit(value)
                seen, line = watcher.stdout.next("typed-defaults watch")
                if line != f"k: {value}":
                    fail(f"typed-defaults watch printed {line!r}, not k: {value}")
                latencies.append(since(committed, seen))
                time.sleep(arguments.pause)
            watcher.stop()
        elif path == "page":
            events = PageEvents(arguments.serve, suite, env)
            for value in range(1, arguments.changes + 1):
                committed = writer.commit(value)
                seen, row = events.next_value()
                if shown_value(row) != value:
                    fail(f"the page's event carried {row!r}, not {value}")
                latencies.append(since(committed, seen))
                time.sleep(arguments.pause)
            events.stop()
        elif path == "watch-exit":
            writer.stop()
            watcher = Program([arguments.tool, "watch", suite], env)
            watcher.stderr.next("typed-defaults watch")
            for value in range(1, arguments.changes + 1):
                launched = time.monotonic_ns()
                subprocess.run([arguments.tool, "write", suite, "k", "--int", str(value)], env=env, check=True)
                exited = time.monotonic_ns()
                seen, line = watcher.stdout.next("typed-defaults watch")
                if line != f"k: {value}":
                    fail(f"typed-defaults watch printed {line!r}, not k: {value}")
                latencies.append(since((launched, exited), seen))
                time.sleep(arguments.pause)
            watcher.stop()
        elif path == "locks":
            # An administrator's lock, appearing and going: the value in force flips between the
            # administrator's default and the user's value.
            admin = os.path.join(folder, "admin")
            os.makedirs(admin, exist_ok=True)
            with open(os.path.join(admin, suite + ".plist"), "w") as defaults:
                defaults.write("{ k = -1; }")
            locks = os.path.join(admin, suite + ".locks")
            watcher = Program([arguments.tool, "watch", suite], dict(env, XDG_CONFIG_DIRS=admin))
            watcher.stderr.next("typed-defaults watch")
            for change in range(arguments.changes):
                if change % 2 == 0:
                    with open(locks + ".new", "w") as new:
                        new.write("k\n")
                    changed = time.monotonic_ns()
                    os.rename(locks + ".new", locks)
                    expected = f"k: -1 (locked by {locks})"
                else:
                    changed = time.monotonic_ns()
                    os.remove(locks)
                    expected = "k: 0"
                seen, line = watcher.stdout.next("typed-defaults watch")
                if line != expected:
                    fail(f"typed-defaults watch printed {line!r}, not {expected}")
                latencies.append(since((changed, changed), seen))
                time.sleep(arguments.pause)
            watcher.stop()
    finally:
        if writer.process.poll() is None:
            writer.stop()
    return latencies


FROM = {
    "observer": "the writer's commit → its callback",
    "watch": "the writer's commit → `typed-defaults watch`'s line",
    "page": "the writer's commit → the page's event",
    "provider": "the writer's commit → `watchValue`'s update",
    "locks": "the locks file's rename or removal → `typed-defaults watch`'s line",
    "watch-exit": "`typed-defaults write`'s exit → `typed-defaults watch`'s line",
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tool", required=True, help="typed-defaults")
    parser.add_argument("--probe", required=True, help="change-latency-probe")
    parser.add_argument("--serve", help="typed-defaults-serve (needed for the page's path)")
    parser.add_argument("--changes", type=int, default=30)
    parser.add_argument("--paths", default=",".join(PATHS))
    parser.add_argument("--pause", type=float, default=0.05)
    arguments = parser.parse_args()
    paths = arguments.paths.split(",")
    for path in paths:
        if path not in PATHS:
            fail(f"no path {path!r}: the paths are {', '.join(PATHS)}")
    if "page" in paths and not arguments.serve:
        fail("the page's path needs --serve")
    print(
        f"| path | from → to | changes | median | worst | from the start: median | worst "
        f"| target (≤ {TARGET_MEDIAN_MS} ms, ≤ {TARGET_WORST_MS} ms) |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for path in paths:
        with tempfile.TemporaryDirectory() as folder:
            latencies = measure(path, arguments, folder)
        after_end = [end for end, _ in latencies]
        after_start = [start for _, start in latencies]
        median, worst = statistics.median(after_end), max(after_end)
        met = "✅" if median <= TARGET_MEDIAN_MS and worst <= TARGET_WORST_MS else "❌"
        print(
            f"| `{path}` | {FROM[path]} | {len(latencies)} | {median:.2f} ms | {worst:.2f} ms "
            f"| {statistics.median(after_start):.2f} ms | {max(after_start):.2f} ms | {met} |", flush=True)


if __name__ == "__main__":
    main()
