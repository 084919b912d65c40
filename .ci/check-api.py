#!/usr/bin/env python3
"""Checks what `swift package diagnose-api-breaking-changes` found against CHANGELOG.md.

    check-api.py --log LOG --modules M… --changelog CHANGELOG.md [--baseline FOLDER]
        Fails unless the log has a verdict for each module, and each break it reports is listed
        in the changelog's Unreleased section: the declaration, as `Type.member(labels:)` or
        `member(labels:)`, in backticks. With the recorded API in FOLDER, a break of a `package`
        declaration (recorded as internal: the package's own targets use it, no client can) is
        no break of the API.
    check-api.py --libraries plain|traits < DUMP
        Prints the library products of the package whose `swift package dump-package` is DUMP:
        those built without a trait (plain), or those with a dependency only a trait brings
        (traits), which are built with every trait.
    check-api.py --baseline FOLDER --modules M…
        Fails unless the recorded API of each module is there and names declarations: a library
        missing from the baseline would go unchecked, and an empty one would let every break
        through.
    check-api.py --plant FOLDER MODULE OUT
        Writes into OUT a copy of MODULE's recorded API in FOLDER with one more type, which the
        code does not declare.
    check-api.py --refuses-planted --log LOG --modules M… --changelog CHANGELOG.md
        Fails unless the first check, given the real tool's log against that copy, refuses the
        planted type's removal and nothing else.
    check-api.py --self-test
        Checks the two checks above on made-up input, a planted unlisted break among it.
"""

import json
import pathlib
import re
import sys
import tempfile

BREAK = re.compile(r"API breakage: (?:[a-z]+ )+?((?:[A-Za-z_][\w]*\.)*[A-Za-z_`][^ ]*?)(?: has | is |$)")


def unreleased(changelog):
    text = pathlib.Path(changelog).read_text()
    start = text.index("## [Unreleased]")
    end = text.find("\n## [", start + 1)
    return text[start : end if end > 0 else len(text)]


def package_declarations(folder, modules):
    """The names of the declarations the recorded API holds as internal (`package` ones), as a
    break names them: `Type`, `Type.member(labels:)`."""
    names = set()

    def walk(node, prefix):
        name = node.get("printedName") or node.get("name")
        if node.get("kind") in ("TypeDecl", "Function", "Var", "Constructor", "TypeAlias", "Subscript") and name:
            qualified = prefix + name
            if node.get("isInternal"):
                names.add(qualified)
            prefix = qualified + "." if node.get("kind") == "TypeDecl" else prefix
        for child in node.get("children", []):
            walk(child, prefix)

    for module in modules:
        path = pathlib.Path(folder) / f"{module}.json"
        if path.exists():
            walk(json.loads(path.read_text())["ABIRoot"], "")
    return names


def unlisted_breaks(log, modules, changelog, package=frozenset()):
    """The problems: a module with no verdict, and each break the changelog does not list. A
    break of a declaration in `package` (see package_declarations) is none."""
    problems = []
    for module in modules:
        if not re.search(rf"(No breaking changes|\d+ breaking changes?) detected in {module}\b", log):
            problems.append(f"{module}: no verdict (did it build?)")
    listed = unreleased(changelog)
    for line in log.split("\n"):
        if "API breakage:" not in line:
            continue
        match = BREAK.search(line)
        name = match.group(1) if match else None
        # The member alone, as a changelog names it beside its type: `observe(keys:initial:_:)`.
        member = re.sub(r"^(?:\w+\.)+", "", name.split("(")[0]) + name[len(name.split("(")[0]) :] if name else None
        if name in package:
            continue
        if not name or (name not in listed and member not in listed):
            problems.append(f"a break CHANGELOG.md does not list: {line.strip()}")
    return problems


def libraries(dump, kind):
    """The library products of a package's dump, those a trait brings a dependency to or the others."""
    targets = {target["name"]: target for target in dump["targets"]}

    def needs_trait(product):
        # Each dependency is {"byName" | "target" | "product": [name, …, condition]}.
        conditions = [
            next(iter(dependency.values()))[-1]
            for name in product["targets"]
            for dependency in targets[name]["dependencies"]
        ]
        return any(condition and condition.get("traits") for condition in conditions)

    return [
        product["name"] for product in dump["products"]
        if "library" in product["type"] and needs_trait(product) == (kind == "traits")
    ]


def baseline_problems(folder, modules):
    problems = []
    files = list(pathlib.Path(folder).glob("*.json"))
    for module in modules:
        path = pathlib.Path(folder) / f"{module}.json"
        if not path.exists():
            problems.append(f"no recorded API of the library {module} in {folder}: record it (.ci/api --record)")
            continue
        dump = json.loads(path.read_text())
        names = dump.get("ABIRoot", dump).get("children", [])
        if len(names) < 3:
            problems.append(f"the recorded API of {module} names {len(names)} declarations: it was not dumped")
    if not files:
        problems.append(f"{folder} holds no recorded API")
    return problems


PLANTED = "PlantedRemovedType"


def plant(folder, module, out):
    """A copy of the recorded API that also declares PLANTED, a copy of its first struct."""
    dump = json.loads((pathlib.Path(folder) / f"{module}.json").read_text())
    children = dump["ABIRoot"]["children"]
    model = next(child for child in children if child.get("declKind") == "Struct" and not child.get("isInternal"))
    children.append(json.loads(json.dumps(model).replace(model["name"], PLANTED)))
    pathlib.Path(out).mkdir(parents=True, exist_ok=True)
    (pathlib.Path(out) / f"{module}.json").write_text(json.dumps(dump))


def self_test():
    with tempfile.TemporaryDirectory() as folder:
        changelog = pathlib.Path(folder) / "CHANGELOG.md"
        changelog.write_text(
            "# Changelog\n\n## [Unreleased]\n\n### Changed\n\n- `DefaultsStore.observe(keys:initial:_:)` takes any"
            " sequence.\n\n## [0.9.0]\n\n- `Removed.old()` went.\n"
        )
        log = (
            "2 breaking changes detected in TypedDefaults:\n"
            "  💔 API breakage: func DefaultsStore.observe(keys:initial:_:) has removed default argument from parameter 0\n"
            "  💔 API breakage: func Removed.old() has been removed\n"
        )
        problems = unlisted_breaks(log, ["TypedDefaults"], changelog)
        assert len(problems) == 1 and "Removed.old()" in problems[0], problems
        # A package declaration that moved to another target of the package is no break.
        moved = log + "  💔 API breakage: enum Moved has been removed\n"
        (pathlib.Path(folder) / "TypedDefaults.json").write_text(json.dumps({"ABIRoot": {"kind": "Root", "children": [
            {"kind": "TypeDecl", "name": "Moved", "printedName": "Moved", "isInternal": True}]}}))
        package = package_declarations(folder, ["TypedDefaults"])
        assert package == {"Moved"}, package
        assert unlisted_breaks(moved, ["TypedDefaults"], changelog, package) == problems
        assert unlisted_breaks("No breaking changes detected in TypedDefaults\n", ["TypedDefaults"], changelog) == []
        assert unlisted_breaks("error: build failed\n", ["TypedDefaults"], changelog) != []
        (pathlib.Path(folder) / "TypedDefaults.json").write_text('{"ABIRoot": {"kind": "Root", "children": []}}')
        assert any("not dumped" in p for p in baseline_problems(folder, ["TypedDefaults"]))
        assert any("no recorded API of the library Added" in p for p in baseline_problems(folder, ["Added"]))
    dump = {
        "products": [{"name": "Core", "type": {"library": ["automatic"]}, "targets": ["Core"]},
                     {"name": "Macros", "type": {"library": ["automatic"]}, "targets": ["Macros"]},
                     {"name": "tool", "type": {"executable": None}, "targets": ["Core"]}],
        "targets": [{"name": "Core", "dependencies": [{"byName": ["Other", None]}]},
                    {"name": "Macros", "dependencies": [
                        {"byName": ["Core", None]},
                        {"target": ["Plugin", {"platformNames": [], "traits": ["Macros"]}]}]}],
    }
    assert libraries(dump, "plain") == ["Core"] and libraries(dump, "traits") == ["Macros"]
    print("check-api: the checks find a planted unlisted break, a missing verdict, an empty baseline and a"
          " library missing from it, pass a moved package declaration, and tell the libraries a trait builds"
          " from the others")


def main(arguments):
    if arguments[:1] == ["--self-test"]:
        self_test()
        return
    if arguments[:1] == ["--plant"]:
        plant(*arguments[1:4])
        return
    if arguments[:1] == ["--libraries"]:
        print(" ".join(libraries(json.load(sys.stdin), arguments[1])))
        return
    if arguments[:1] == ["--baseline"]:
        problems = baseline_problems(arguments[1], arguments[arguments.index("--modules") + 1 :])
    else:
        log = pathlib.Path(arguments[arguments.index("--log") + 1]).read_text()
        modules = arguments[arguments.index("--modules") + 1 : arguments.index("--changelog")]
        package = frozenset()
        if "--baseline" in arguments:
            package = package_declarations(arguments[arguments.index("--baseline") + 1], modules)
        problems = unlisted_breaks(log, modules, arguments[arguments.index("--changelog") + 1], package)
        if arguments[:1] == ["--refuses-planted"]:
            if len(problems) == 1 and f"{PLANTED} has been removed" in problems[0]:
                print(f"the API check refuses a planted break: {problems[0]}")
                return
            problems = [f"the API check did not refuse the planted {PLANTED} alone:"] + (problems or ["nothing refused"])
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
