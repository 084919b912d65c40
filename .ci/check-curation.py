#!/usr/bin/env python3
"""Checks that the DocC catalog curates every public symbol: check-curation.py ARCHIVE [MODULE]

Every type, and every member of a type, protocol or extension, of the module (TypedDefaults unless
MODULE is given; each library has a catalog of its own) must be listed under a Topics heading
written by hand: on the landing page, in an article, or on its type's page (a documentation
extension in the catalog's Extensions folder). DocC lists the rest
under headings it makes itself, by kind ("Instance Methods", "Default Implementations"), and
marks those sections `"generated": true` in the page's JSON; a symbol listed only there, or on
no page at all, fails the check, named by its path, as a symbol link names it. (A symbol curated
by hand passes wherever else DocC lists it: its "<Protocol> Implementations" pages, such as
UserDefault's DefaultsRuleChaining Implementations, keep listing members curated elsewhere.)

Three classes of symbol pages are not required, and are counted apart (see `excluded`):

- Members Swift or Foundation provides: the implementations a standard protocol's extension
  gives every conforming type (Equatable's `!=`, Error's `localizedDescription`, Comparable's
  range operators, the Unicode-scalar and grapheme-cluster literal initializers, a raw-value
  enum's `hashValue`). TypedDefaults does not declare them, Swift documents them, and DocC makes
  a "<Protocol> Implementations" page of them on every type: curating them would list the same
  `!=` on twenty pages and tell the reader nothing about TypedDefaults.
- Other modules' types that TypedDefaults extends (the "Extended Modules" pages: `Swift/Int`,
  `FoundationEssentials/URL`) and, on them, the members that implement a TypedDefaults protocol's
  requirement (`init(defaultsRepresentation:)`, `defaultsRepresentation()`). These pages hold
  the protocol's witnesses, nearly all with no text beyond the requirement's; what a reader
  needs (that the type is supported, and how it is stored) is in the SupportedTypes article and
  on the extension's own page. Their paths also name the module that declares the type, which differs between
  Linux and Apple platforms (`FoundationEssentials/URL` here, `Foundation/URL` there), so a link
  written to one would break the catalog on the other. Any other member added to such a type
  (`UserDefaults.suite(named:)`) is required.
- Default implementations of a TypedDefaults protocol's requirement (in a protocol extension)
  that DocC lists, on the requirement's page, under "Default Implementations", which is not a
  topic section and is there whatever the curation. `DefaultsValueConvertible` alone has 31, one
  for each kind of conforming type (raw-value enums, `Codable` types, `NSSecureCoding` classes,
  …), each titled `init(defaultsRepresentation:)` or `defaultsRepresentation()`: listed again
  under a Topics heading they would be 31 lines alike, told apart only by their hash suffixes.
"""

import json
import pathlib
import sys

MODULE = sys.argv[2] if len(sys.argv) == 3 else "TypedDefaults"
# The landing page's identifier, which names the catalog's bundle: set by load().
PREFIX = ""
# The mangled prefix of the module's own declarations: a member DocC copies from a protocol
# extension onto a conforming type has the USR `<the extension member's>::SYNTHESIZED::<type's>`.
OWN_USR = f"s:{len(MODULE)}{MODULE}"

FROM_SWIFT = "members Swift or Foundation provides (Equatable's !=, Error's localizedDescription, …)"
EXTENDED = "other modules' types TypedDefaults extends, and their conversion witnesses"
DEFAULT = "default implementations DocC lists under the requirement they implement"


def load(archive):
    """Every page of the module, by identifier."""
    global PREFIX
    root = pathlib.Path(archive) / "data/documentation"
    landing = root / f"{MODULE.lower()}.json"
    PREFIX = json.loads(landing.read_text())["identifier"]["url"]
    files = [landing, *(root / MODULE.lower()).rglob("*.json")]
    pages = {}
    for file in files:
        page = json.loads(file.read_text())
        pages[page["identifier"]["url"]] = page
    return pages


def path(identifier):
    """The symbol's path, as a symbol link names it: `DefaultsStore/flush()`."""
    return MODULE if identifier == PREFIX else identifier.removeprefix(PREFIX + "/")


def main(archive):
    pages = load(archive)
    curated, generated, default_implementations = set(), {}, set()
    for identifier, page in pages.items():
        for section in page.get("topicSections", []):
            for listed in section.get("identifiers", []):
                if section.get("generated"):
                    generated.setdefault(listed, f"“{section.get('title')}” of {path(identifier)}")
                else:
                    curated.add(listed)
        for section in page.get("defaultImplementationsSections", []):
            default_implementations.update(section.get("identifiers", []))

    landing = pages[PREFIX]
    extended_modules = {
        listed
        for section in landing.get("topicSections", [])
        if section.get("title") == "Extended Modules"
        for listed in section.get("identifiers", [])
    }
    requirements = {
        page["metadata"]["title"] for page in pages.values() if page["metadata"].get("required")
    }

    def excluded(identifier, page):
        """The class a page not curated by hand is excused as, or None when it must be curated."""
        metadata = page["metadata"]
        origin, synthesized, _ = metadata.get("externalID", "").partition("::SYNTHESIZED::")
        if synthesized and not origin.startswith(OWN_USR):
            return FROM_SWIFT
        if any(identifier == module or identifier.startswith(module + "/") for module in extended_modules):
            name = metadata.get("title", "")
            if metadata.get("symbolKind") == "typealias":
                name = name.rpartition(".")[2]  # "Array.DefaultsRepresentation"
            if metadata.get("symbolKind") == "extension" or name in requirements:
                return EXTENDED
        if identifier in default_implementations and identifier not in generated:
            return DEFAULT
        return None

    types = members = 0
    excused, uncurated = {}, []
    for identifier, page in sorted(pages.items()):
        metadata = page["metadata"]
        is_extension_page = metadata.get("symbolKind") == "extension"
        if metadata.get("role") != "symbol" and not is_extension_page:
            continue  # the landing page, articles, and DocC's "<Protocol> Implementations" pages
        if identifier in curated:
            if "/" not in path(identifier) and not is_extension_page:
                types += 1
            else:
                members += 1
        elif reason := excluded(identifier, page):
            excused[reason] = excused.get(reason, 0) + 1
        else:
            where = generated.get(identifier)
            uncurated.append(
                f"  {path(identifier)}: " + (f"only in DocC's generated {where}" if where else "in no topic section")
            )

    print(f"{types} types and {members} members curated under a Topics heading")
    for reason in (FROM_SWIFT, EXTENDED, DEFAULT):
        print(f"{excused.get(reason, 0)} excluded as {reason}")
    if uncurated:
        sys.exit(
            f"{len(uncurated)} symbols are not curated under any Topics heading; add each to a Topics group "
            "of its type's page (Extensions/<Type>.md), an article or the landing page:\n" + "\n".join(uncurated)
        )
    print("every type and member is curated under a Topics heading")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(sys.argv[1])
