#!/usr/bin/env python3
"""Writes every ```swift snippet of README.md and Sources/*/Documentation.docc/*.md into the DocSnippets target.

    Examples/Scripts/extract-snippets.py          # (re)writes Examples/DocSnippets/Generated/ and the `file` snippets
    Examples/Scripts/extract-snippets.py --check  # fails, changing nothing, when any of them is not current

The generated files are checked in (so `swift build --package-path Examples` works on a fresh checkout) and
`--check`, run by Examples/run-tests.sh, fails when a doc changed without them. Building DocSnippets then fails when a
snippet stops compiling.

One file per article, `Generated/<Article>Snippets.swift` (README.md is `README`; an article is `<Module><Name>`, e.g.
`ScreenplayForms`), holding an `extension <Article>Snippets`. The struct itself is declared by hand in
`DocSnippets/Context/<Article>.swift`, with the names the article's snippets use without declaring them (a `store`,
a `driver`...): stored properties for statement snippets, nested or file-level declarations for the rest. An
article whose snippets need nothing still has its (empty) context struct.

The rule that places a snippet's code. A snippet is split into units at its lines that start in column 0 and are
not a closing bracket (`}`, `)`, `]`) nor a continuation (`.map`); comments in column 0 go with the unit after them.
A unit whose first line starts with a declaration keyword (`final`, `class`, `struct`, `enum`, `protocol`, `func`,
`typealias`, `actor`) or an attribute (`@Test`, `@MainActor`...) is a declaration and goes, as it is, inside the
extension; `import` lines go to the top of the file; `extension` units at file level. Every other unit is a
statement: a snippet's statements, in order, form the body of one `func snippetAtLine<N>() async throws` of the
extension (N: the line of the snippet's opening fence), which nothing calls: it is only compiled.

An HTML comment on the line right before a fence tells the script something about the snippet:
    <!-- snippet: skip (reason) -->     not compiled (a snippet that shows an error on purpose); keep these very few
    <!-- snippet: file PATH -->         the snippet is the whole content of PATH (from the repository root), any
                                        language: written by the script, or checked by --check (the README's Counter)
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "Examples" / "DocSnippets" / "Generated"
CONTEXT = ROOT / "Examples" / "DocSnippets" / "Context"
DIRECTIVE = re.compile(r"^<!--\s*snippet:\s*(skip|file)\b\s*(.*?)\s*-->\s*$")
DECLARATION = re.compile(r"^(final|class|struct|enum|protocol|func|typealias|actor|public|internal|private|"
                         r"fileprivate|nonisolated|@\w+)\b")
HEADER_IMPORTS = ["Foundation", "ReactiveTesting", "Screenplay", "ScreenplayTesting", "Testing"]


class Snippet:
    def __init__(self, doc, line, language, code, directive):
        self.doc, self.line, self.language, self.code, self.directive = doc, line, language, code, directive


def documents():
    yield "README", ROOT / "README.md"
    for path in sorted(ROOT.glob("Sources/*/Documentation.docc/*.md")):
        yield path.parts[-3] + path.stem, path


def snippets(path):
    lines = path.read_text().split("\n")
    index = 0
    while index < len(lines):
        match = re.match(r"^```(\S*)\s*$", lines[index])
        if not match or not match.group(1):
            index += 1
            continue
        start, language = index, match.group(1)
        end = start + 1
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        if end == len(lines):
            sys.exit(f"{path.relative_to(ROOT)}:{start + 1}: a code block that never ends")
        before = start - 1
        while before >= 0 and not lines[before].strip():
            before -= 1
        directive = DIRECTIVE.match(lines[before]) if before >= 0 else None
        code = "\n".join(lines[start + 1:end])
        yield Snippet(path, start + 1, language, code, directive and (directive.group(1), directive.group(2)))
        index = end + 1


def units(code):
    """Splits code into (first code line, lines) units at column-0 lines, comments going with the next unit."""
    result, current, comments = [], [], []
    for line in code.split("\n"):
        starts = line and not line[0].isspace() and line[0] not in "})]."
        if starts and line.startswith("//"):
            comments.append(line)
            continue
        if starts:
            if current:
                result.append(current)
            current = comments + [line]
            comments = []
        else:
            if comments and not current:
                current, comments = comments, []
            current.append(line)
    if current or comments:
        result.append(current + comments)
    return [(next((line for line in unit if not line.startswith("//")), ""), unit) for unit in result]


def indented(lines, by):
    return [(" " * by + line) if line.strip() else "" for line in lines]


def generate(article, path, found):
    relative = path.relative_to(ROOT)
    imports, file_level, body = set(), [], []
    for snippet in found:
        statements = []
        for first, unit in units(snippet.code):
            if first.startswith("import "):
                imports.add(first.split()[1])
            elif first.startswith("extension "):
                file_level += [f"// {relative}:{snippet.line}"] + unit + [""]
            elif DECLARATION.match(first):
                body += [f"    // {relative}:{snippet.line}"] + indented(unit, 4) + [""]
            else:
                statements += unit
        if statements:
            body += [f"    // {relative}:{snippet.line}", f"    func snippetAtLine{snippet.line}() async throws {{"]
            body += indented(statements, 8) + ["    }", ""]
    header = [
        f"// Generated by Examples/Scripts/extract-snippets.py from {relative}: do not edit, run the script.",
        f"// The names these snippets use without declaring them are in ../Context/{article}.swift.",
        "",
    ]
    header += [f"import {name}" for name in sorted(set(HEADER_IMPORTS) | imports)] + [""]
    while body and not body[-1]:
        body.pop()
    return "\n".join(header + file_level + [f"extension {article}Snippets {{"] + body + ["}", ""])


def main():
    check = "--check" in sys.argv[1:]
    stale, expected, skipped, count = [], {}, [], 0
    for article, path in documents():
        found = []
        for snippet in snippets(path):
            where = f"{path.relative_to(ROOT)}:{snippet.line}"
            if snippet.directive and snippet.directive[0] == "file":
                expected[ROOT / snippet.directive[1]] = snippet.code + "\n"
            elif snippet.directive and snippet.directive[0] == "skip":
                if snippet.language == "swift":
                    skipped.append(f"{where} {snippet.directive[1]}")
            elif snippet.language == "swift":
                found.append(snippet)
        count += len(found)
        if found:
            if not (CONTEXT / f"{article}.swift").exists():
                sys.exit(f"{path.relative_to(ROOT)}: write DocSnippets/Context/{article}.swift, declaring "
                         f"`struct {article}Snippets` with the names its snippets use")
            expected[OUT / f"{article}Snippets.swift"] = generate(article, path, found)
    for old in OUT.glob("*.swift"):
        if old not in expected:
            stale.append(f"{old.relative_to(ROOT)} (no longer generated)")
            if not check:
                old.unlink()
    for target, text in sorted(expected.items()):
        if not target.exists() or target.read_text() != text:
            stale.append(str(target.relative_to(ROOT)))
            if not check:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text)
    for line in skipped:
        print(f"skipped: {line}")
    if check and stale:
        sys.exit("Not current (run Examples/Scripts/extract-snippets.py): " + ", ".join(stale))
    print(f"{count} swift snippets in {len([t for t in expected if t.parent == OUT])} files, "
          f"{len(skipped)} skipped, {'checked' if check else 'written'}"
          + ("" if check or not stale else ": " + ", ".join(stale)))


if __name__ == "__main__":
    main()
