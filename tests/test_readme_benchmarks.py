"""The README's figures are in one place, one table per gold set, and the default's rows are
what `extract run` + `extract eval` measure today (issue 19: the eval and Benchmarks sections
gave different figures for the same set; the Benchmarks section was a wall of prose)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from extract.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SETS = {"dev2": (ROOT / "tests/gold/dev2/abstracts.jsonl", ROOT / "tests/gold/dev2/gold.jsonl"),
        "dev": (ROOT / "seeds" / "000_810fdc4303f22573.txt", ROOT / "tests/gold/dev-gold.jsonl")}


def section(title: str) -> str:
    return README.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def table_after(text: str, label: str) -> list[list[str]]:
    """The rows (cells) of the first table after the paragraph that starts with ``label``."""
    block = text.split(f"\n{label}", 1)[1]
    lines = block.split("\n\n| ", 1)[1].split("\n\n", 1)[0]
    rows = ["| " + lines.split("\n", 1)[0]] + lines.split("\n")[1:]
    return [[c.strip() for c in r.strip().strip("|").split("|")] for r in rows if not r.startswith("|---")]


def test_one_table_per_set_in_benchmarks_and_no_figures_in_eval():
    bench = section("Benchmarks")
    for name in ("dev2", "dev", "dev3"):
        rows = table_after(bench, f"**{name}**")
        header, body = rows[0], rows[1:]
        assert header[:2] == ["configuration", "measured"] and "result claims P / R / F1" in header
        assert body and all(re.fullmatch(r"\d{4}-\d\d-\d\d", r[1]) for r in body), name
        assert body[0][0] == "rules alone (default)"
    eval_section = README.split("### `extract eval", 1)[1].split("\n### ", 1)[0]
    assert not re.search(r"^\| dev", eval_section, re.M), "figures belong to Benchmarks only"
    assert "[Benchmarks](#benchmarks)" in eval_section


def _measured(name: str, tmp_path) -> dict:
    abstracts, gold = SETS[name]
    out = tmp_path / f"{name}.jsonl"
    r = CliRunner().invoke(main, ["run", str(abstracts), "-o", str(out), "-q", "--no-cache"],
                           catch_exceptions=False)
    assert r.exit_code == 0, r.stderr
    r = CliRunner().invoke(main, ["eval", str(out), "--gold", str(gold), "--json"], catch_exceptions=False)
    return json.loads(r.stdout)


@pytest.mark.parametrize("name", list(SETS))
def test_the_defaults_rows_are_as_measured(name, tmp_path):
    d = _measured(name, tmp_path)
    c, a = d["result_claims"], d["dataset_attachment"]
    fresh = [f"{d['method_names']['f1']:.3f}", f"{d['datasets']['f1']:.3f}", f"{d['numbers']['f1']:.3f}",
             f"{d['result_numbers']['f1']:.3f}",
             f"{c['precision']:.3f} / {c['recall']:.3f} / {c['f1']:.3f}",
             f"{a['accuracy']:.3f} ({a['correct']}/{a['total']})", f"{d['metric_f1']['f1']:.3f}",
             f"{d['contribution']['accuracy']:.3f}"]
    row = table_after(section("Benchmarks"), f"**{name}**")[1]
    shown = row[2:10]
    assert shown == fresh, ("the README's rules row of " + name + " is stale; measured now: | "
                            + " | ".join(fresh) + " |")
    assert row[-1] == f"{d['grounded']['rate']:.3f}"
