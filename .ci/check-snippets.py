#!/usr/bin/env python3
"""Compiles every Swift snippet of the README and the DocC catalog, so none can rot.

Usage: check-snippets.py REPO_ROOT WORK_FOLDER [BUILD_FOLDER]

Each ```swift block becomes a module of its own in a generated package that depends on the
library by path: declarations (types, extensions, imports) stay at file scope, and statements,
`@UserDefault` and `@Setting` properties included, become the body of an `async throws`
function, the place where such code compiles (a script's top level accepts no property
wrapper). A block may need names an earlier block declared; an HTML comment right before it
supplies them, invisible on the rendered page:

    <!-- snippet context
    @UserDefault("theme") var theme = Theme.system
    -->

A block that begins with imports, `import TypedDefaults` among them, or comes right after
`<!-- snippet main.swift -->`, is a program's `main.swift`, top-level code and all: it is compiled verbatim as an executable's, so
it works when pasted into one. A program whose lines end in `// prints "…"` claims that output:
it is run 20 times, each in a preferences folder of its own, and must print exactly those lines,
in order, every time. A program that claims what a second run prints (`// prints "…", then "…"`)
is run twice in each preferences folder, 10 folders in all: the first run prints the first
lines, the second run, which reads what the first stored, the second. A block whose first line is `// swift-tools-version: …` is a package
manifest: it is evaluated with `swift package dump-package`. The script exits non-zero, naming
the file and line of each block that fails.
"""

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
RUNS = 20


def snippets(path):
    """Yields (line number, context, whether it is a main.swift, code) for each ```swift block."""
    lines = path.read_text().split("\n")
    index = 0
    while index < len(lines):
        if lines[index].strip() == "```swift":
            start = index + 1
            end = start
            while lines[end].strip() != "```":
                end += 1
            context = ""
            code_lines = lines[start:end]
            is_main = (index > 0 and lines[index - 1].strip() == "<!-- snippet main.swift -->") or (
                code_lines[0].startswith("import ") and "import TypedDefaults" in code_lines
            )
            if index > 0 and lines[index - 1].strip() == "-->":
                opening = index - 2
                while lines[opening].strip() != "<!-- snippet context":
                    opening -= 1
                context = "\n".join(lines[opening + 1 : index - 1])
            yield start + 1, context, is_main, "\n".join(lines[start:end])
            index = end
        index += 1


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


def swift_file(context, code, uses):
    context_declarations, context_statements = split(context)
    declarations, statements = split(code)
    body = "\n".join("    " + line for line in (context_statements + "\n" + statements).split("\n"))
    return (
        "import Foundation\nimport TypedDefaults\nimport TypedDefaultsSchema\n"
        + ("import TypedDefaultsMacros\n" if uses["macros"] else "")
        + ("import TypedDefaultsSecrets\n" if uses["secrets"] else "")
        + "\n"
        + context_declarations
        + "\n\n"
        + declarations
        + "\n\nfunc snippet() async throws {\n"
        + body
        + "\n}\n"
    )


def main():
    root, work = pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2]).resolve()
    # A build folder shared with the nested packages' builds, or the package's own.
    build = pathlib.Path(sys.argv[3]).resolve() if len(sys.argv) > 3 else work / ".build"
    documents = [root / "README.md"] + sorted((root / "Sources").glob("*/*.docc/*.md"))
    targets, manifests, runs = [], [], []
    for document in documents:
        for line, context, is_main, code in snippets(document):
            where = f"{document.relative_to(root)}:{line}"
            if code.startswith("// swift-tools-version:"):
                manifests.append((where, code))
                continue
            name = "Snippet_" + re.sub(r"\W", "_", f"{document.stem}_{line}")
            folder = work / "Sources" / name
            folder.mkdir(parents=True, exist_ok=True)
            uses = {
                "postgres": "import TypedDefaultsPostgres" in context + code,
                "configuration": "import TypedDefaultsConfiguration" in context + code,
                "web": "import TypedDefaultsWeb" in context + code,
                "macros": "@ObservableSettings" in context + code or "import TypedDefaultsMacros" in context + code,
                "secrets": any(name in context + code for name in ("Secret(", "Keyring", "import TypedDefaultsSecrets")),
            }
            if is_main:
                (folder / "main.swift").write_text(code + "\n")
            else:
                (folder / "Snippet.swift").write_text(swift_file(context, code, uses))
            targets.append((name, where, is_main, uses))
            expected = claimed_output(code)
            if expected:
                if not is_main:
                    sys.exit(f"{where}: a block that claims output (// prints) must be a program (begin with import)")
                runs.append((name, where, expected))

    def dependencies(uses):
        # The integrations' products are named only for the examples that use them.
        products = ['.product(name: "TypedDefaults", package: "root")',
                    '.product(name: "TypedDefaultsSchema", package: "root")',
                    '.product(name: "TypedDefaultsTestSupport", package: "root")']
        if uses["postgres"]:
            products.append('.product(name: "TypedDefaultsPostgres", package: "root")')
        if uses["configuration"]:
            products.append('.product(name: "TypedDefaultsConfiguration", package: "root")')
            products.append('.product(name: "Configuration", package: "swift-configuration")')
        if uses["macros"]:
            products.append('.product(name: "TypedDefaultsMacros", package: "root")')
        if uses["secrets"]:
            products.append('.product(name: "TypedDefaultsSecrets", package: "root")')
        if uses["web"]:
            products.append('.product(name: "TypedDefaultsWeb", package: "root")')
            products.append('.product(name: "Hummingbird", package: "hummingbird")')
        return "[" + ", ".join(products) + "]"

    target_list = ",\n".join(
        f'        .{"executableTarget" if is_main else "target"}(name: "{name}", '
        f"dependencies: {dependencies(uses)})"
        for name, _, is_main, uses in targets
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

    result = subprocess.run(
        ["swift", "build", "--package-path", str(work), "--scratch-path", str(build)], capture_output=True, text=True
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
