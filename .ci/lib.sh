# Sourced by every CI stage (.ci/<stage>): strict mode, the repository root as the working
# folder, and a preferences folder of the run's own, so no suite the tests and the demo write
# lands in the real ~/.config. A stage run alone makes that folder and removes it at its end;
# under .ci/run every stage shares the run's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ -z "${TYPEDDEFAULTS_CI_FOLDER:-}" ]; then
    TYPEDDEFAULTS_CI_FOLDER="$(mktemp -d)"
    export TYPEDDEFAULTS_CI_FOLDER
    owns_folder=1
fi
# What a stage leaves: the folder, when it made it. A stage with more to undo sets its own trap
# and calls this last.
cleanup() {
    if [ -n "${owns_folder:-}" ]; then rm -rf "$TYPEDDEFAULTS_CI_FOLDER"; fi
}
trap cleanup EXIT
export XDG_CONFIG_HOME="$TYPEDDEFAULTS_CI_FOLDER"

# The nested packages that share SwiftNIO, BoringSSL, Hummingbird and swift-syntax (Web,
# Postgres, Configuration, Macros and the snippets' package) build into one folder, with every
# trait of the root package enabled, so a run compiles each of those once, not once per package
# (BoringSSL alone takes minutes). Each package's own stage
# builds it first, so that its warnings are printed and checked; later stages find it built. The folder is
# git-ignored (.build-*), and stays for the next run.
nested_build="$PWD/.build-nested"
# CI's builds of the packages beside the root one (nested, Tools, Combine, Apple) carry no debug
# information: that cut a cold build by a fifth here (the Combine package: 47 s, 37 s without),
# and nobody steps through them; a failed expectation names its line all the same. The root
# package's build keeps it, as the README's `swift test` builds it. A command with other flags
# would compile everything in its folder again, so every command on such a folder passes these.
no_debug_info=(-debug-info-format none)
nested=(--scratch-path "$nested_build" "${no_debug_info[@]}")
tools=(--package-path Tools "${no_debug_info[@]}")

# Installs the Debian packages named for the commands that are missing: need COMMAND:PACKAGE…
need() {
    local missing=()
    for pair in "$@"; do
        command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
}

# SwiftPM passes a package's enabled traits to the compiler as -D flags in the order of a Set,
# whose hashing takes a seed of each process's own. Whenever SwiftPM plans a build anew (another
# product, another package in the shared folder, another environment variable) the flags may come
# in another order, and every module built with traits is compiled again: the core's 141 files and
# more, 20 to 110 seconds a time. A fixed seed for every command that builds keeps one order. Tests
# then run what was built (swift test --skip-build), with the usual random seed.
swift_build() { SWIFT_DETERMINISTIC_HASHING=1 swift build "$@"; }

# Runs a swift build and fails when it printed a warning: build_without_warnings ARGUMENTS…
# SwiftPM's notes on files a dependency does not declare (swift-distributed-tracing, which
# Hummingbird uses, has one) are the dependency's, not ours.
build_without_warnings() {
    local log="$TYPEDDEFAULTS_CI_FOLDER/build-$$.log"
    swift_build "$@" 2>&1 | tee "$log"
    if grep "warning:" "$log" | grep -v "^warning: 'swift-[a-z-]*': found [0-9]* file(s) which are unhandled" | grep -q .; then
        echo "swift build $* printed warnings" >&2
        exit 1
    fi
}

# Runs a test command (test_reporting swift test ARGUMENTS…), keeping what it printed in
# $test_log; on a failure, ends with what failed (the fatal error, the crashed thread, the tests
# still running), which a crash's backtrace pushes out of view.
test_reporting() {
    test_log="$TYPEDDEFAULTS_CI_FOLDER/test-$$.log"
    if ! "$@" 2>&1 | tee "$test_log"; then
        python3 .ci/test-failures.py "$test_log"
        exit 1
    fi
}

# Points XDG_CONFIG_HOME at an empty folder of the stage's own: own_preferences NAME
own_preferences() {
    XDG_CONFIG_HOME="$TYPEDDEFAULTS_CI_FOLDER/$1"
    mkdir -p "$XDG_CONFIG_HOME"
}
