"""The vocabulary of reviewer triage (:mod:`extract.triage`): the flag types with their
weights, a flag with its evidence and points, a paper's triage item."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

PER_ITEM_CAP = 3  # a per-item flag counts at most this many times


@dataclass(frozen=True)
class FlagType:
    code: str
    weight: int
    label: str
    description: str
    per_item: bool = False


FLAG_TYPES: dict[str, FlagType] = {f.code: f for f in [
    FlagType("failed", 5, "extraction failed", "in the errors file: nothing was extracted"),
    FlagType("number_not_in_source", 4, "number not in source",
             "a number's text is not at its offsets or not in the abstract", True),
    FlagType("no_comparison", 3, "no baseline or comparison",
             "results are claimed, but none belongs to another named system and the paper's own "
             "sentences name no comparison"),
    FlagType("partial", 3, "partial extraction",
             "strings the model named were not in the abstract and were dropped", True),
    FlagType("result_no_metric", 2, "result without metric",
             "a result's claim does not say what it measures, nor does its sentence", True),
    FlagType("value_mismatch", 2, "value does not match text",
             "a number's value is not the number its text states (e.g. '85,229' read as 85.229)", True),
    FlagType("name_not_in_source", 2, "name not in source",
             "a method, dataset or claim name is not at its offsets or not in the abstract", True),
    FlagType("unsupported_superlative", 2, "superlative without number",
             "one of the paper's own claim sentences says 'state-of-the-art', 'significantly', ... "
             "with no number in it", True),
    FlagType("rules_disagree", 2, "rules and model disagree",
             "the rules' reading of a number (kind, dataset, method) and the model's differ", True),
    FlagType("settings_only", 2, "numbers are all settings", "every number is a setting; no result is quantified"),
    FlagType("result_no_dataset", 1, "result without dataset",
             "a result's claim names no dataset although the paper names datasets (none in its sentence)", True),
    FlagType("change_no_reference", 1, "change without reference",
             "a gain, drop or speedup names no system it is measured against and its sentence names no "
             "reference (over, than, baseline, SOTA, ...)", True),
    FlagType("no_numbers", 1, "no numbers", "no number at all (not for theory papers)"),
    FlagType("no_dataset", 1, "no dataset named",
             "no dataset, benchmark or corpus is named, though the paper reports an evaluation (not for theory papers)"),
    FlagType("other_schema", 0, "not the default schema", "the record's extraction is not of the default schema"),
]}


@dataclass
class Evidence:
    text: str
    start: int | None = None
    end: int | None = None
    context: str = ""  # the sentence, with the span marked «like this»
    note: str = ""
    #: where the marked spans are in ``context`` (the text between « and »): an abstract
    #: may hold « or » itself, so a reader that bolds the spans goes by these offsets
    marks: list = field(default_factory=list)

    def __post_init__(self):
        if isinstance(self.context, Marked):
            self.marks = [list(m) for m in self.context.marks]
            self.context = str(self.context)


class Marked(str):
    """A context string with the offsets of its marked spans (``marks``)."""

    marks: tuple = ()


@dataclass
class Flag:
    code: str
    weight: int
    label: str
    evidence: list[Evidence] = field(default_factory=list)

    @property
    def points(self) -> int:
        """What the flag adds to the score: its weight, times its items (capped) when per item."""
        if FLAG_TYPES[self.code].per_item:
            return self.weight * max(1, min(len(self.evidence), PER_ITEM_CAP))
        return self.weight


@dataclass
class Triage:
    id: str
    title: str | None
    source: str
    task: str
    contribution: str
    score: int
    flags: list[Flag]
    failed: bool = False

    @property
    def label(self) -> str:
        return " ".join((self.title or "").split()) or self.id

    def as_dict(self) -> dict:
        d = asdict(self)
        for f, flag in zip(d["flags"], self.flags):
            f["points"] = flag.points
        return d


def flags_help() -> str:
    """One line per flag for ``extract triage --help``."""
    width = max(len(c) for c in FLAG_TYPES)
    return "\n".join(f"{f.code:<{width}}  +{f.weight}{'*' if f.per_item else ' '} {f.description}"
                     for f in FLAG_TYPES.values())
