#!/usr/bin/env bash
# What depending on TypedDefaults costs an app, beside swift-argument-parser and plain
# UserDefaults, in one run: one-file apps, each a package of its own in a temporary folder,
# built cold (release and debug), timed (wall and CPU seconds of the whole process tree), and
# their executables stripped and weighed.
#
# Usage: bash Benchmarks/dependency-cost.sh [--rounds N] [--all] [--configs release,debug]
#            [--repository PATH] [--compare PATH] [--keep FOLDER]
#   --rounds N         alternating rounds, every app and configuration once a round (default 2)
#   --all              also the apps on TypedDefaultsSchema, TypedDefaultsSecrets and the
#                      @ObservableSettings macro (trait Macros: swift-syntax, minutes more)
#   --configs LIST     release, debug or both (default release,debug)
#   --repository PATH  the TypedDefaults checkout the apps depend on (default this repository)
#   --compare PATH     also the core's app on another checkout (an older commit's tree, from
#                      git archive), in the same rounds, so that both share the machine's load
#   --keep FOLDER      build in FOLDER and leave it, with the unstripped executables, for
#                      size -A and nm (default: a temporary folder, removed at the end)
#
# Each app's packages are resolved first, untimed; before each build everything in .build but
# the resolved checkouts is removed, so each build is cold. CPU seconds are user + sys of the
# build and every process it waited for (getrusage of the children). The table gives each
# figure's range over the rounds, and each stripped executable's growth over the plain app's.
set -euo pipefail
repository="$(cd "$(dirname "$0")/.." && pwd)"
rounds=2
all=0
configs=release,debug
keep=""
compare=""
while [ $# -gt 0 ]; do
    case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --all) all=1; shift ;;
    --configs) configs="$2"; shift 2 ;;
    --repository) repository="$(cd "$2" && pwd)"; shift 2 ;;
    --compare) compare="$(cd "$2" && pwd)"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    *) echo "usage: $0 [--rounds N] [--all] [--configs release,debug] [--repository PATH] [--compare PATH] [--keep FOLDER]" >&2; exit 2 ;;
    esac
done
exec python3 - "$repository" "$rounds" "$all" "$configs" "$keep" "$compare" <<'PYTHON'
import os, resource, shutil, subprocess, sys, tempfile, time

repository, rounds, everything, configs, keep, compare = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4].split(","), sys.argv[5], sys.argv[6]
parser = '.package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0")'
core = f'.package(path: "{repository}")'

# name: (table label, package dependency, products, source file name, source)
apps = {
    "plain": ("plain `UserDefaults`", None, [], "main.swift", """import Foundation

final class Settings {
    var launchCount: Int {
        get { UserDefaults.standard.integer(forKey: "launchCount") }
        set { UserDefaults.standard.set(newValue, forKey: "launchCount") }
    }
}

let settings = Settings()
settings.launchCount += 1
print(settings.launchCount)
"""),
    "argument-parser": ("`import ArgumentParser` (one `ParsableCommand`)", parser, ["ArgumentParser"], "App.swift", """import ArgumentParser

@main
struct App: ParsableCommand {
    @Option(help: "How many times to greet.") var count = 1
    @Flag(help: "Greet loudly.") var loud = false

    func run() {
        for _ in 0..<count { print(loud ? "HELLO" : "hello") }
    }
}
"""),
    "core": ("`import TypedDefaults` (one `@UserDefault var`)", core, ["TypedDefaults"], "main.swift", """import TypedDefaults

final class Settings {
    @UserDefault("launchCount") var launchCount = 0
}

let settings = Settings()
settings.launchCount += 1
print(settings.launchCount)
"""),
}
if compare:
    apps["compared"] = (f"`import TypedDefaults` at {compare}", f'.package(path: "{compare}")', ["TypedDefaults"], "main.swift", apps["core"][4])
if everything:
    apps["schema"] = ("`TypedDefaultsSchema` (a catalog, published)", core, ["TypedDefaults", "TypedDefaultsSchema"], "main.swift", """import TypedDefaults
import TypedDefaultsSchema

extension DefaultsKeys {
    static let launchCount = DefaultsKey<Int>("launchCount", default: 0)
}

struct AppSettings: SettingsCatalog {
    @Setting("fontSize", title: "Font size", range: 8...72, step: 2) var fontSize = 12
}

DefaultsStore.standard[.launchCount] += 1
try DefaultsSchema.publish(AppSettings(), keys: [.launchCount])
print(AppSettings().fontSize)
""")
    apps["secrets"] = ("`TypedDefaultsSecrets` (one `@Secret var`)", core, ["TypedDefaults", "TypedDefaultsSecrets"], "main.swift", """import TypedDefaults
import TypedDefaultsSecrets

final class AccountSettings {
    @UserDefault("theme") var theme = "system"
    @Secret("token") var token: String?
}

let account = AccountSettings()
account.theme = "dark"
print(account.theme, account.token?.count ?? 0)
""")
    apps["macros"] = ("`@ObservableSettings` (trait `Macros`)", f'.package(path: "{repository}", traits: ["Macros"])', ["TypedDefaultsMacros"], "main.swift", """import TypedDefaultsMacros

@ObservableSettings
final class AppSettings: Sendable {
    static let shared = AppSettings()
    var launchCount = 0
}

AppSettings.shared.launchCount += 1
print(AppSettings.shared.launchCount)
""")

def package_of(dependency):
    if dependency == parser:
        return "swift-argument-parser"
    return os.path.basename(compare if compare and f'"{compare}"' in dependency else repository)

folder = keep or tempfile.mkdtemp(prefix="dependency-cost.")
os.makedirs(folder, exist_ok=True)
for name, (_, dependency, products, file, source) in apps.items():
    app = os.path.join(folder, name)
    os.makedirs(os.path.join(app, "Sources", "App"), exist_ok=True)
    uses = ", ".join(f'.product(name: "{product}", package: "{package_of(dependency)}")' for product in products)
    platforms = "[.macOS(.v14), .iOS(.v17)]" if name == "macros" else "[.macOS(.v13), .iOS(.v16)]"
    with open(os.path.join(app, "Package.swift"), "w") as manifest:
        manifest.write(f"""// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "App", platforms: {platforms},
    dependencies: [{dependency or ""}],
    targets: [.executableTarget(name: "App", dependencies: [{uses}])]
)
""")
    with open(os.path.join(app, "Sources", "App", file), "w") as text:
        text.write(source)
    subprocess.run(["swift", "package", "resolve"], cwd=app, check=True, stdout=subprocess.DEVNULL)

def clean(app):
    # Everything a build made; the resolved checkouts stay, so no build fetches.
    build = os.path.join(app, ".build")
    for entry in os.listdir(build):
        if entry not in ("checkouts", "repositories", "workspace-state.json", "artifacts", "prebuilts"):
            path = os.path.join(build, entry)
            shutil.rmtree(path) if os.path.isdir(path) and not os.path.islink(path) else os.remove(path)

def build(app, config):
    clean(app)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    result = subprocess.run(["swift", "build", "-c", config, "--product", "App"], cwd=app,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        sys.exit(f"{os.path.basename(app)}: swift build -c {config} failed:\n{result.stdout}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    executable = os.path.join(app, ".build", config, "App")
    stripped = os.path.join(folder, f"{os.path.basename(app)}-{config}.stripped")
    subprocess.run(["strip", "-o", stripped, executable], check=True)
    shutil.copy(executable, os.path.join(folder, f"{os.path.basename(app)}-{config}.unstripped"))
    return wall, cpu, os.path.getsize(stripped)

results = {}  # (name, config) -> [(wall, cpu, size)]
order = list(apps)
for round in range(rounds):
    # Alternating: each round in the other order, so no app always builds on a warmer machine.
    for name in (order if round % 2 == 0 else order[::-1]):
        for config in configs:
            figures = build(os.path.join(folder, name), config)
            results.setdefault((name, config), []).append(figures)
            print(f"round {round + 1}: {name} {config}: {figures[0]:.1f} s wall, {figures[1]:.1f} s CPU, {figures[2]:,} bytes", file=sys.stderr, flush=True)

def span(values, form):
    low, high = min(values), max(values)
    return form(low) if form(low) == form(high) else f"{form(low)}–{form(high)}"

print(f"{rounds} round(s), {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} at the end")
print()
print("| app | build | wall | CPU seconds | stripped binary | growth over plain |")
print("|---|---|---:|---:|---:|---:|")
for name, (label, *_rest) in apps.items():
    for config in configs:
        runs = results[(name, config)]
        size = max(run[2] for run in runs)
        plain = results.get(("plain", config))
        growth = f"+{size - max(run[2] for run in plain):,}" if plain and name != "plain" else "—"
        print(f"| {label} | {config} | {span([r[0] for r in runs], lambda v: f'{v:.1f} s')} "
              f"| {span([r[1] for r in runs], lambda v: f'{v:.1f}')} | {size:,} | {growth} |")
if not keep:
    shutil.rmtree(folder)
PYTHON
