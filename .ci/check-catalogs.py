#!/usr/bin/env python3
"""Checks that the documentation reaches every library and article: check-catalogs.py

- every library product of Package.swift has a catalog, Sources/<Library>/<Library>.docc with its
  landing page <Library>.md, and `.spi.yml` lists it among its documentation targets;
- the README's documentation table links every article of every catalog (a catalog's .md files
  but its landing page);
- the table of the libraries is the same in the README and in Getting started, which the Swift
  Package Index shows without the README.
"""

import pathlib
import re
import sys

GETTING_STARTED = pathlib.Path("Sources/TypedDefaults/TypedDefaults.docc/GettingStarted.md")


def libraries_table(text):
    """The table that starts with the header `| Library | For | Trait |`, to its blank line."""
    return text[text.index("| Library | For | Trait |") :].split("\n\n")[0]


def main():
    libraries = re.findall(r'\.library\(name: "(\w+)"', pathlib.Path("Package.swift").read_text())
    spi = pathlib.Path(".spi.yml").read_text()
    readme = pathlib.Path("README.md").read_text()
    problems = [
        f"{library} has no catalog: Sources/{library}/{library}.docc/{library}.md"
        for library in libraries
        if not pathlib.Path(f"Sources/{library}/{library}.docc/{library}.md").exists()
    ]
    problems += [f".spi.yml does not list {library}" for library in libraries if not re.search(rf"\b{library}\b", spi)]
    problems += [
        f"README.md's documentation table has no row for {article}"
        for article in sorted(pathlib.Path("Sources").glob("*/*.docc/*.md"))
        if article.stem != article.parent.stem and f"]({article})" not in readme
    ]
    if libraries_table(readme) != libraries_table(GETTING_STARTED.read_text()):
        problems.append(f"the libraries' tables of README.md and {GETTING_STARTED} differ")
    if problems:
        sys.exit("\n".join(problems))
    print(f"{len(libraries)} libraries, each with a catalog that .spi.yml lists; every article in the README's table")


if __name__ == "__main__":
    main()
