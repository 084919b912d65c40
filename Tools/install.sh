#!/usr/bin/env bash
# Builds typed-defaults (release) and installs it where a shell finds it:
#
#     bash Tools/install.sh [--serve] [PREFIX]     # PREFIX: ~/.local/bin unless given
#     bash Tools/install.sh --uninstall [PREFIX]
#
# The tool needs swift-argument-parser alone. --serve also builds and installs the page server
# that `typed-defaults serve` runs, typed-defaults-serve, beside it: it fetches and builds
# Hummingbird and SwiftNIO (about 25 packages, minutes). Installing copies the built programs
# into PREFIX, making it if need be, and nothing else; --uninstall removes them from PREFIX again.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
serve=0
uninstall=0
prefix=""
for argument in "$@"; do
    case "$argument" in
        --serve) serve=1 ;;
        --uninstall) uninstall=1 ;;
        -h | --help) sed -n '2,10s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
        -*) echo "install.sh: unknown option $argument (see bash Tools/install.sh --help)" >&2; exit 64 ;;
        *)
            [ -z "$prefix" ] || { echo "install.sh: one PREFIX, not $prefix and $argument" >&2; exit 64; }
            prefix="$argument"
            ;;
    esac
done
prefix="${prefix:-$HOME/.local/bin}"
if [ "$serve" = 1 ] && [ "$uninstall" = 1 ]; then
    echo "install.sh: --serve installs and --uninstall removes: give one of them" >&2
    exit 64
fi

if [ "$uninstall" = 1 ]; then
    for program in typed-defaults typed-defaults-serve; do
        if [ -e "$prefix/$program" ]; then
            rm -f "$prefix/$program"
            echo "removed $prefix/$program"
        fi
    done
    exit 0
fi

# Builds PRODUCT of PACKAGE in release and installs it into the prefix.
# install_product PACKAGE PRODUCT [OPTION…]: builds PRODUCT of the package in PACKAGE (release),
# with the options given (a trait), and installs it.
install_product() {
    local package="$1" product="$2"
    shift 2
    swift build --package-path "$root/$package" -c release "$@" --product "$product"
    local built
    built="$(swift build --package-path "$root/$package" -c release "$@" --show-bin-path)/$product"
    mkdir -p "$prefix"
    install -m 755 "$built" "$prefix/$product"
    echo "installed $prefix/$product"
}

install_product Tools typed-defaults
# The page's server, from the root package with its Web trait: only it fetches Hummingbird.
if [ "$serve" = 1 ]; then install_product . typed-defaults-serve --traits Web; fi

case ":$PATH:" in
    *":$prefix:"*) ;;
    *) echo "note: $prefix is not on PATH; add it, e.g. in ~/.profile: export PATH=\"$prefix:\$PATH\"" ;;
esac
