/// The other program of a history: Python, with its own property-list reader and writer
/// (`plistlib`), writing the suite as a careful program does, under its lock, with a read of the
/// whole file, one key changed and everything else kept. It replaces the file three ways, each
/// seen in the wild: a new binary file renamed over it, a new XML file renamed over it, and the
/// file rewritten in place with its modification time set back (as `cp -p`, `rsync -t` and
/// `touch -r` leave it). Logs as the workers do (`HistoryWorker` in the probe), with the same
/// monotonic clock; a file it cannot parse is logged as an error (`E`).
///
/// argv: the suite's file, the log, the seed, the number of writes.
enum HistoryOutsider {
    static let script = #"""
        import fcntl, os, plistlib, random, sys, time
        path, log_path, seed, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        rng = random.Random(seed)
        log = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        def line(text):
            os.write(log, f"{time.monotonic_ns()} {text}\n".encode())
        for n in range(1, count + 1):
            time.sleep(rng.uniform(0.005, 0.04))
            key, value = f"x.{rng.randrange(4)}", f"o:{n}"
            mode = rng.choice(["binary", "xml", "inplace"])
            line(f"B {n} set {key} {value} outside")
            with open(path + ".lock", "a") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                try:
                    with open(path, "rb") as f:
                        values = plistlib.load(f)
                except FileNotFoundError:
                    values = {}
                except Exception as error:
                    line(f"E outside: the suite file does not parse: {error!r}")
                    continue
                values[key] = value
                if mode == "inplace" and os.path.exists(path):
                    times = os.stat(path)
                    with open(path, "r+b") as f:
                        f.truncate(0)
                        f.write(plistlib.dumps(values, fmt=plistlib.FMT_BINARY))
                    os.utime(path, ns=(times.st_atime_ns, times.st_mtime_ns))
                else:
                    fmt = plistlib.FMT_XML if mode == "xml" else plistlib.FMT_BINARY
                    temporary = f"{path}.outside-{os.getpid()}"
                    with open(temporary, "wb") as f:
                        f.write(plistlib.dumps(values, fmt=fmt))
                    os.rename(temporary, path)
            line(f"A {n} -")
        line("D")
        """#
}
