"""bench/rule_ablation.py: taking a rule out changes what it decides, and the rule is put back."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import rule_ablation  # noqa: E402

from extract.candidates import rules  # noqa: E402


def _rule(name):
    return next(r for t in rules.all_rules().values() for r in t if r.name == name)


def test_taking_out_a_deciding_rule_changes_its_example_and_restores_it():
    rule = _rule("we-propose")
    rows = [("ex", rule.example)]
    before = rule_ablation.dumps(rows)
    assert rule_ablation.ablate(rows, only={"we-propose"}) == [("names", "we-propose", 1)]
    assert _rule("we-propose").test is rule.test
    assert rule_ablation.dumps(rows) == before


def test_only_names_no_rule_gives_no_rows():
    assert rule_ablation.ablate([("ex", "We propose FooNet.")], only={"no-such-rule"}) == []


def test_a_rule_decided_in_code_is_reported_not_ablatable():
    rule = _rule("task-opening")          # task.py decides and calls rules.fire; the table documents it
    assert rule_ablation.ablate([("ex", rule.example)], only={"task-opening"}) == [("task", "task-opening", None)]


def test_a_rule_decided_in_code_is_told_by_its_example_where_the_sample_never_reaches_it():
    assert rule_ablation.ablate([("ex", "Nothing to see.")], only={"task-opening"}) == [("task", "task-opening", None)]


def test_a_claims_rule_is_taken_out_of_its_table_and_put_back():
    from extract.candidates import claims
    table = claims.METRIC_RULES
    example = next(e for name, e, _ in table if name == "count-noun")     # "on 12 real-world tasks"
    rows = [("ex", "We propose FooNet. FooNet is evaluated " + example + ".")]
    assert rule_ablation.ablate(rows, only={"metric:count-noun"}, record=True) == [("claims", "metric:count-noun", 1)]
    assert claims.METRIC_RULES is table


def test_score_reads_the_figures_a_rule_moves_on_a_labeled_set_and_restores_it():
    """--score: the rule that finds the numbers' percentages is worth the dev set's numbers and
    results; the labeled set is read through extract's own input reader; the rule is put back."""
    sets = rule_ablation.labeled(["dev"])
    items, gold = sets["dev"]
    assert len(items) == len(gold) > 10
    base = rule_ablation.figures(sets)
    assert base["dev", "numbers"] == 1.0
    [(table, name, moved)] = rule_ablation.score(sets, only={"percent"})
    assert (table, name) == ("numbers", "percent")
    assert moved["dev", "results"] < 0 and all(k[0] == "dev" for k in moved)
    assert rule_ablation.figures(sets) == base
    assert rule_ablation.score(sets, only={"task-opening"}) == [("task", "task-opening", None)]
