"""On how many abstracts each rule fires, and each alternative of the patterns it tests:

    python bench/rule_firings.py [--corpus PATH.jsonl.gz] [--local] [--max N] [--limit N] [--markdown]

The corpus is ``../shared/corpus/papers-13-venues.jsonl.gz`` (10,901 real abstracts, 13 venues),
``--local`` the abstracts of seeds/ and tests/gold/.  Every rule of the rule tables (numbers,
names, roles, contribution, task: :func:`extract.candidates.rules.all_rules`) and of the claims
tables (``metric:``, ``dataset:``, ``method:``) is counted on the abstracts whose rules decision
(``extract.decision.decide``, with the row's title) fires it; the task cues are counted as they
read an abstract without a title (with one, its title's task comes first).  A rule that merges patterns does not pass by their sum:
each alternative of a regular expression the rule's test uses (its top-level ``a|b|c``, else
those of its first group with alternatives) is counted on its own, on the abstracts where the
rule fired and the alternative matches the text.  That is an upper bound of the alternative's
own firings (anchors relaxed and case ignored: rules test patterns on context strings, many of
them lower-cased), so an alternative under 10 is surely a rare one.

Prints one line per rule and alternative (abstracts, name), least used first; ``--max N`` keeps
those at most N; ``--markdown`` prints the table the README links (docs/rule-firings.md).  A rule
firing on fewer than 10 corpus abstracts describes those abstracts, not English.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import types
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from extract.candidates.claims import DATASET_RULES, METHOD_RULES, METRIC_RULES  # noqa: E402
from extract.candidates.rules import all_rules, trace  # noqa: E402
from extract.candidates.task import task_candidates  # noqa: E402
from extract.decision import decide  # noqa: E402

CORPUS = next((p / "shared" / "corpus" / "papers-13-venues.jsonl.gz" for p in (ROOT.parent, ROOT.parent.parent)
               if (p / "shared" / "corpus").is_dir()), ROOT.parent / "shared" / "corpus" / "papers-13-venues.jsonl.gz")


def corpus_texts(path: Path, limit: int | None) -> list[tuple[str, str | None]]:
    """(abstract, title) of every row (the rules read both)."""
    out = []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                out.append((row.get("abstract") or "", row.get("title")))
                if limit and len(out) >= limit:
                    break
    return out


def split_alternatives(pattern: str) -> list[str]:
    """The alternatives of ``pattern``: its top-level branches, else those of its first group
    with branches (each put back in the pattern); [pattern] when it has none."""
    def branches(s: str, lo: int, hi: int) -> list[tuple[int, int]]:
        out, depth, start, i, in_class = [], 0, lo, lo, False
        while i < hi:
            ch = s[i]
            if ch == "\\":
                i += 2
                continue
            if in_class:
                in_class = ch != "]"
            elif ch == "[":
                in_class = True
                if s[i + 1:i + 2] == "]":
                    i += 1
            elif ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            elif ch == "|" and depth == 0:
                out.append((start, i))
                start = i + 1
            i += 1
        return out + [(start, hi)]

    top = branches(pattern, 0, len(pattern))
    if len(top) > 1:
        return [pattern[a:b] for a, b in top]
    i, in_class = 0, False
    while i < len(pattern):                 # the first group with branches
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "(":
            depth, j, cls = 1, i + 1, False
            while j < len(pattern) and depth:
                c = pattern[j]
                if c == "\\":
                    j += 2
                    continue
                if cls:
                    cls = c != "]"
                elif c == "[":
                    cls = True
                elif c == "(":
                    depth += 1
                elif c == ")":
                    depth -= 1
                j += 1
            body = i + 1
            m = re.match(r"\?(?:[:>=!]|<[=!]|P<\w+>|<\w+>|[aiLmsux-]+:)", pattern[body:])
            if m:
                body += m.end()
            inner = branches(pattern, body, j - 1)
            if len(inner) > 1:
                return [pattern[:body] + pattern[a:b] + pattern[j - 1:] for a, b in inner]
        i += 1
    return [pattern]


def relax_anchors(pattern: str) -> str:
    """``pattern`` without its ``^`` and ``$`` anchors (outside classes): rules test a pattern on
    a context string ("the text before the name"), the count searches the whole abstract, and
    the relaxed pattern matches wherever the anchored one can."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            out.append(ch)
            if pattern[i + 1:i + 2] == "^":
                out.append("^")
                i += 1
            i += 1
            continue
        elif ch in "^$":
            i += 1
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def patterns_of(fn, seen: set[int] | None = None) -> list[re.Pattern]:
    """The compiled patterns a rule's test uses: module-level patterns it names (also through a
    module: ``cue.INTRO_BEFORE``), pattern strings it passes to ``re``, and those of the
    functions of this package it calls or wraps (a decorated rule's)."""
    seen = seen if seen is not None else set()
    if id(fn) in seen or not isinstance(fn, types.FunctionType):
        return []
    seen.add(id(fn))
    out: list[re.Pattern] = []
    g = fn.__globals__

    def walk(code: types.CodeType) -> None:
        for name in code.co_names:
            for obj in [g.get(name)] + [getattr(m, name, None) for m in g.values() if isinstance(m, types.ModuleType)
                                        and m.__name__.startswith("extract.")]:
                if isinstance(getattr(obj, "pattern", None), re.Pattern):
                    obj = obj.pattern                   # a pattern with a prefilter (name_cues.EndCue)
                if isinstance(obj, re.Pattern):
                    out.append(obj)
                elif isinstance(obj, types.FunctionType) and obj.__module__.startswith("extract.candidates") \
                        and len(seen) < 64:
                    out.extend(patterns_of(obj, seen))
        if "re" in code.co_names:
            for c in code.co_consts:
                if isinstance(c, str) and len(c) > 3 and re.search(r"[\\(|\[]", c):
                    try:
                        out.append(re.compile(c))
                    except re.error:
                        pass
        for c in code.co_consts:
            if isinstance(c, types.CodeType):
                walk(c)
    walk(fn.__code__)
    for cell in fn.__closure__ or ():        # a decorated rule (per_group): the rule it wraps
        if isinstance(cell.cell_contents, types.FunctionType):
            out.extend(patterns_of(cell.cell_contents, seen))
    uniq = {p.pattern: p for p in out}
    return list(uniq.values())


def rule_tests() -> dict[str, object]:
    tests: dict[str, object] = {}
    for table in all_rules().values():
        for r in table:
            tests[r.name] = r.test
    for prefix, table in (("metric", METRIC_RULES), ("dataset", DATASET_RULES), ("method", METHOD_RULES)):
        for name, _, fn in table:
            tests[f"{prefix}:{name}"] = fn
    return tests


def firings(texts: list) -> Counter:
    """Abstracts each rule and alternative fires on; ``texts``: abstracts, or (abstract, title) pairs."""
    tests = rule_tests()
    alts: dict[str, list[tuple[str, re.Pattern]]] = {}
    for name, fn in tests.items():
        for p in patterns_of(fn):
            parts = split_alternatives(p.pattern)
            if len(parts) < 2:
                continue
            for part in parts:
                try:
                    alts.setdefault(name, []).append((part, re.compile(relax_anchors(part), p.flags | re.I)))
                except re.error:
                    pass
    counts: Counter = Counter({name: 0 for name in tests})
    for name, parts in alts.items():
        for part, _ in parts:
            counts[f"{name}  | {part[:70]}"] += 0
    for item in texts:
        text, title = (item, None) if isinstance(item, str) else item
        with trace() as fired:
            decide(text, title=title)
            if title:               # the task cues as an input without a title reads them (the title's task comes first)
                task_candidates(text)
        counts.update(fired)
        for name in fired:
            for part, rx in alts.get(name, ()):
                if rx.search(text):
                    counts[f"{name}  | {part[:70]}"] += 1
    return counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--local", action="store_true", help="the abstracts of seeds/ and tests/gold/ instead")
    ap.add_argument("--max", type=int, default=None)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    if args.local:
        from candidates_dump import corpus
        texts = [t for _, t in corpus()]
    else:
        texts = corpus_texts(args.corpus, args.limit)
    rows = sorted(firings(texts).items(), key=lambda kv: (kv[1], kv[0]))
    rows = [(k, c) for k, c in rows if args.max is None or c <= args.max]
    if args.markdown:
        print(f"| abstracts (of {len(texts)}) | rule  \\| alternative |\n|---:|---|")
        for name, c in rows:
            print(f"| {c} | `{name.replace('|', chr(92) + '|')}` |")
    else:
        for name, c in rows:
            print(f"{c:5d}/{len(texts)}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
