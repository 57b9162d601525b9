"""``extract calibrate``: who should decide each field, measured on the user's own labeled sample.

The sample's abstracts are run once through the hybrid job (cached: a calibrated run, or a
second calibration, asks nothing again); each cached raw answer is then mapped under every
source ("rules", "model", "auto": :class:`extract.hybrid.Combine`) without another request,
scored against the gold (:func:`extract.evaluate.evaluate`), and each field goes to the
source that scored best on the figures that field drives.  A tie keeps the default ("auto").
The result is a policy file for ``extract run --policy FILE``.

Fields and the figures that judge them (the task phrase has no gold figure: it stays "auto"):

============  =====================================================
names         method names F1 + datasets F1
contribution  contribution accuracy
kinds         result numbers F1
drops, added  numbers F1
claims        result claims F1 + dataset attachment accuracy
============  =====================================================
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace

from .evaluate import EvalResult, evaluate

#: each policy field and the figures (of :class:`EvalResult`) it is judged by
JUDGED_BY = {
    "names": ("methods", "datasets"),
    "contribution": ("contribution",),
    "kinds": ("results",),
    "drops": ("numbers",),
    "added": ("numbers",),
    "claims": ("claims", "attachment"),
}
CANDIDATES = ("auto", "model", "rules")     # the first wins a tie (the default)


def figures(r: EvalResult) -> dict[str, float]:
    return {"methods": r.method_names.f1, "datasets": r.datasets.f1, "numbers": r.numbers.f1,
            "results": r.result_numbers.f1, "claims": r.result_claims.f1,
            "attachment": r.claims.dataset_accuracy, "contribution": r.contribution_accuracy,
            "metric": r.claims.metric_f1, "grounded": r.grounded_rate}


@dataclass
class Calibration:
    scores: dict[str, dict[str, float]]               # source -> figure -> value
    fields: dict[str, str] = field(default_factory=dict)  # policy field -> chosen source
    matched: int = 0

    def policy(self, about: dict) -> dict:
        """The policy file's content."""
        return {"fields": dict(self.fields), "measured": {"abstracts": self.matched, **about},
                "scores": {s: {k: round(v, 4) for k, v in f.items()} for s, f in self.scores.items()}}

    def table(self) -> str:
        names = list(next(iter(self.scores.values())))
        lines = [f"{'source':8} " + " ".join(f"{n:>12}" for n in names)]
        for source, f in self.scores.items():
            lines.append(f"{source:8} " + " ".join(f"{f[n]:>12.3f}" for n in names))
        lines.append("")
        lines.append("chosen:  " + ", ".join(f"{k}={v}" for k, v in self.fields.items()))
        return "\n".join(lines) + "\n"


def choose(scores: dict[str, dict[str, float]]) -> dict[str, str]:
    """Each field's source: the best sum of its figures, a tie to the earliest candidate."""
    out = {"task": "auto"}
    for name, figs in JUDGED_BY.items():
        out[name] = max(CANDIDATES, key=lambda s: (round(sum(scores[s][f] for f in figs), 9),
                                                   -CANDIDATES.index(s)))
    return out


def calibrate(records_by_source: dict[str, list[dict]], gold: list[dict]) -> Calibration:
    """Score each source's records against ``gold`` and choose per field."""
    results = {s: evaluate(recs, gold) for s, recs in records_by_source.items()}
    scores = {s: figures(r) for s, r in results.items()}
    return Calibration(scores, choose(scores), matched=min(r.matched for r in results.values()))


def remapped(extractor_for, items) -> dict[str, list[dict]]:
    """Each source's records of ``items`` from the cache (``extractor_for(source)`` gives an
    :class:`extract.pipeline.Extractor` of that policy); nothing is asked."""
    out = {}
    for source in CANDIDATES:
        ex = extractor_for(source)
        recs = []
        for item in items:
            hit = ex.from_cache(item)
            if hit is not None:
                recs.append(hit[0])
        out[source] = recs
    return out


def config_for(config, source: str):
    return replace(config, decide=source, policy=None)


def dumps(policy: dict) -> str:
    return json.dumps(policy, indent=2, sort_keys=True) + "\n"
