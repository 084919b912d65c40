#!/usr/bin/env python3
"""Compiles every Swift snippet of the README and the DocC catalogs, as a reader would paste it.

Usage: check-snippets.py REPO_ROOT WORK_FOLDER [BUILD_FOLDER]

Each ```swift block becomes a module of its own in a generated package that depends on the
library by path, with exactly the imports the block shows: the check adds none, so a block that
forgets `import TypedDefaultsSchema` fails as it would for a reader. Declarations (types,
extensions, imports) stay at file scope, and statements, `@UserDefault` and `@Setting` properties
included, become the body of an `async throws` function, the place where such code compiles (a
script's top level accepts no property wrapper).

A block may continue an earlier one, saying so on its first line, where the reader sees it:

    // Continues "Typed keys".

It is then compiled after the first block of the same document under a heading of that title,
the section's example (which may continue another in turn), with that block's imports and
declarations; a continued program is a program still. A block may not lean on code the reader
does not see: an HTML comment that supplies names is refused.

A block that claims output, or comes right after `<!-- snippet main.swift -->`, is a program's
`main.swift`, top-level code and all: it is compiled verbatim as an executable's, so it works
when pasted into one. A program whose lines end in `// prints "…"` claims that output:
it is run 20 times, each in a preferences folder of its own, and must print exactly those lines,
in order, every time. A program that claims what a second run prints (`// prints "…", then "…"`)
is run twice in each preferences folder, 10 folders in all: the first run prints the first
lines, the second run, which reads what the first stored, the second. A block whose first line is `// swift-tools-version: …` is a package
manifest: it is evaluated with `swift package dump-package`. The script exits non-zero, naming
the file and line of each block that fails.
"""

import os
import pathlib
import re
import subprocess
import sys
import tempfile

DECLARATION = re.compile(
    r"^(import|enum|struct|class|final|extension|protocol|actor|func|typealias|@MainActor|@Observable|@propertyWrapper|@Test"
    r"|@available|@ObservableSettings|@Suite|private|fileprivate|public|internal|nonisolated)\b"
)
STRING = re.compile(r'"(?:\\.|[^"\\])*"')
PRINTS = re.compile(r'// prints "(.*)"')
PRINTS_THEN = re.compile(r'// prints "(.*)", then "(.*)"$')
CONTINUES = re.compile(r'^// Continues "(.+)"\.$')
HEADING = re.compile(r"^#+ (.+)$")
IMPORT = re.compile(r"^import (\w+)", re.M)
# The packages a block's imports come from, beside the root package's libraries.
OTHER_PACKAGES = {"Configuration": "swift-configuration", "Hummingbird": "hummingbird"}
RUNS = 20


class Block:
    """A ```swift block: where it starts, the heading it is under, and its code."""

    def __init__(self, line, heading, marked_main, code):
        self.line, self.heading, self.code = line, heading, code
        self.continued = None  # the earlier block it continues, if it says so
        self.is_main = marked_main or bool(claimed_output(code))

    def chain(self):
        """The blocks compiled for this one: those it continues, earliest first, then itself."""
        return (self.continued.chain() if self.continued else []) + [self]

    def whole_code(self):
        return "\n".join(block.code for block in self.chain())

    def program(self):
        return any(block.is_main for block in self.chain())


def snippets(path):
    """The ```swift blocks of a document, each linked to the block it continues; exits on an unknown one."""
    lines = path.read_text().split("\n")
    blocks, heading, index = [], None, 0
    while index < len(lines):
        line = lines[index].strip()
        if line == "<!-- snippet context":
            sys.exit(f"{path}:{index + 1}: names a block needs must be in a block the reader sees (// Continues \"…\".)")
        if match := HEADING.match(lines[index]):
            heading = match.group(1).strip()
        elif line.startswith("```"):
            end = index + 1
            while lines[end].strip() != "```":
                end += 1
            if line == "```swift":
                marked_main = index > 0 and lines[index - 1].strip() == "<!-- snippet main.swift -->"
                block = Block(index + 2, heading, marked_main, "\n".join(lines[index + 1 : end]))
                if match := CONTINUES.match(lines[index + 1]):
                    earlier = [other for other in blocks if other.heading == match.group(1)]
                    if not earlier:
                        sys.exit(f"{path}:{index + 2}: continues \"{match.group(1)}\", which no earlier block is under")
                    block.continued = earlier[0]
                blocks.append(block)
            # A fence's lines, a shell comment among them, are not headings.
            index = end
        index += 1
    return blocks


def claimed_output(code):
    """The lines each run of a program must print: one list per run of a folder, [] for none."""
    first, second, twice = [], [], False
    for line in code.split("\n"):
        if match := PRINTS_THEN.search(line):
            first.append(match.group(1))
            second.append(match.group(2))
            twice = True
        elif match := PRINTS.search(line):
            first.append(match.group(1))
            second.append(match.group(1))
    if not first:
        return []
    return [first, second] if twice else [first]


def split(code):
    """Splits a block into file-scope declarations and function-body statements."""
    declarations, statements = [], []
    depth, target = 0, None
    for line in code.split("\n"):
        if depth == 0:
            target = declarations if DECLARATION.match(line) else statements
        target.append(line)
        bare = STRING.sub('""', line).split("//")[0]
        depth += bare.count("{") - bare.count("}")
    return "\n".join(declarations), "\n".join(statements)


def swift_file(code):
    declarations, statements = split(code)
    body = "\n".join("    " + line for line in statements.split("\n"))
    return declarations + "\n\nfunc snippet() async throws {\n" + body + "\n}\n"


def main():
    root, work = pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2]).resolve()
    # A build folder shared with the nested packages' builds, built as they are (.ci/lib.sh: no
    # debug information), or the package's own.
    shared = len(sys.argv) > 3
    build = pathlib.Path(sys.argv[3]).resolve() if shared else work / ".build"
    documents = [root / "README.md"] + sorted((root / "Sources").glob("*/*.docc/**/*.md"))
    targets, manifests, runs = [], [], []
    for document in documents:
        for block in snippets(document):
            where = f"{document.relative_to(root)}:{block.line}"
            if block.code.startswith("// swift-tools-version:"):
                manifests.append((where, block.code))
                continue
            name = "Snippet_" + re.sub(r"\W", "_", f"{document.stem}_{block.line}")
            folder = work / "Sources" / name
            folder.mkdir(parents=True, exist_ok=True)
            code, is_main = block.whole_code(), block.program()
            if is_main:
                (folder / "main.swift").write_text(code + "\n")
            else:
                (folder / "Snippet.swift").write_text(swift_file(code))
            targets.append((name, where, is_main, sorted(set(IMPORT.findall(code)))))
            # A continued program's claims are checked by its own block; this one's, when it makes any.
            if claimed_output(block.code):
                runs.append((name, where, claimed_output(code)))

    def dependencies(modules):
        # The products of the modules the block imports: the root package's libraries, and the
        # packages an integration's example uses beside it. Others (Foundation, Testing) need none.
        products = [f'.product(name: "{module}", package: "root")' for module in modules if module.startswith("TypedDefaults")]
        products += [f'.product(name: "{module}", package: "{OTHER_PACKAGES[module]}")'
                     for module in modules if module in OTHER_PACKAGES]
        return "[" + ", ".join(products) + "]"

    target_list = ",\n".join(
        f'        .{"executableTarget" if is_main else "target"}(name: "{name}", '
        f"dependencies: {dependencies(modules)})"
        for name, _, is_main, modules in targets
    )
    (work / "Package.swift").write_text(
        "// swift-tools-version: 6.2\nimport PackageDescription\n\n"
        'let package = Package(\n    name: "Snippets",\n'
        "    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],\n"
        # Every trait, as the web, configuration and PostgreSQL stages build the library.
        f'    dependencies: [.package(name: "root", path: "{root}", traits: ["Postgres", "Configuration", "Web", "Macros"]), '
        '.package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"), '
        '.package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1")],\n'
        f"    targets: [\n{target_list}\n    ],\n    swiftLanguageModes: [.v6]\n)\n"
    )

    failures = []
    for where, code in manifests:
        folder = work / "manifest" / re.sub(r"\W", "_", where)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "Package.swift").write_text(code + "\n")
        result = subprocess.run(
            ["swift", "package", "--package-path", str(folder), "dump-package"], capture_output=True, text=True
        )
        if result.returncode != 0:
            failures.append(f"{where}: the manifest does not evaluate\n{result.stderr}")

    # A fixed hash seed for the build, as CI's other builds into the shared folder (.ci/lib.sh):
    # SwiftPM orders the traits' flags by a Set, and another order compiles every module with
    # traits again. The programs below run with the usual random seed.
    result = subprocess.run(
        ["swift", "build", "--package-path", str(work), "--scratch-path", str(build)]
        + (["-debug-info-format", "none"] if shared else []),
        capture_output=True,
        text=True,
        env={**os.environ, "SWIFT_DETERMINISTIC_HASHING": "1"},
    )
    for name, where, *_ in targets:
        errors = [line for line in result.stdout.split("\n") if f"/{name}/" in line and "error:" in line]
        if errors:
            failures.append(f"{where}: does not compile\n" + "\n".join(errors))
    if result.returncode != 0 and not failures:
        failures.append("the snippets package did not build:\n" + result.stdout[-4000:] + result.stderr[-4000:])
    if not failures:
        failures += run_programs(build, runs)

    if failures:
        print("\n\n".join(failures), file=sys.stderr)
        sys.exit(1)
    print(
        f"{len(targets)} snippets compiled, {len(manifests)} manifests evaluated, "
        f"{len(runs)} programs printed what they claim {RUNS} runs each"
    )


def run_programs(build, runs):
    """Runs each program that claims output; returns a failure for each run that printed otherwise."""
    failures = []
    for name, where, expected in runs:
        executable = build / "debug" / name
        problem = None
        for attempt in range(1, RUNS // len(expected) + 1):
            with tempfile.TemporaryDirectory() as folder:
                for run, lines in enumerate(expected, start=1):
                    problem = run_once(executable, folder, lines)
                    if problem:
                        which = f"run {run} in folder {attempt}" if len(expected) > 1 else f"run {attempt} of {RUNS}"
                        failures.append(f"{where}: {which} should print {lines}: {problem}")
                        break
            if problem:
                break
    return failures


def run_once(executable, folder, expected):
    """Runs a program in a preferences folder; returns what went wrong, or None."""
    environment = {"PATH": "/usr/bin:/bin", "HOME": folder, "XDG_CONFIG_HOME": folder}
    try:
        result = subprocess.run(
            [str(executable)], capture_output=True, text=True, timeout=30, env=environment, cwd=folder
        )
    except subprocess.TimeoutExpired:
        return "did not end within 30 s"
    printed = result.stdout.rstrip("\n").split("\n") if result.stdout else []
    if (result.returncode, printed) == (0, expected):
        return None
    return f"exit {result.returncode}, printed {printed}\n{result.stderr[-2000:]}"


if __name__ == "__main__":
    main()
