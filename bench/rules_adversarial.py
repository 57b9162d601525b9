"""How the rule layer's time grows with the length of hostile text (issue 20, "Hangs").

    python bench/rules_adversarial.py [--sizes 5000,10000,20000,40000] [--shapes "a|b"]

Feeds the whole rules decision (``extract.decision.decide``: candidates, names, claims,
task) shapes that used to make it quadratic - long runs of spaces or line breaks, ``1,1,1,...``,
``1-1-1-...``, numbers and separators, brackets, LaTeX, one long sentence of claims or of
comparisons, a long segment before a list, many names - at each size, and prints per shape
the CPU seconds per size (this thread's, the least of two runs: other processes do not count)
and the growth ratio t(2n)/t(n) at the largest size (linear: about 2; quadratic: about 4),
then the worst ratio, the worst time, and that time as a multiple of a normal abstract's, and
per character as a multiple of the normal abstract repeated to the same length.
No figure is a pass/fail here: tests/test_rules_hostile.py bounds the growth.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from extract.decision import decide  # noqa: E402

NORMAL = ("We propose FooNet, a detector for small objects. On COCO, FooNet reaches 52.1 AP at 120 FPS, "
          "outperforming YOLOv8-L (50.3 AP) and RT-DETR (51.0 AP). It also improves mIoU on ADE20K "
          "from 47.2 to 49.8 with 20% fewer FLOPs. ")

SHAPES = {
    "spaces": lambda n: NORMAL + " " * n + NORMAL,
    "line breaks": lambda n: NORMAL + " \n" * (n // 2) + NORMAL,
    "1,1,1,...": lambda n: NORMAL + ",".join(["1"] * (n // 2)) + ".",
    "numbers and separators": lambda n: NORMAL + " ".join(f"{i % 97}.{i % 7}% ;" for i in range(n // 8)) + ".",
    "brackets": lambda n: NORMAL + "(" * (n // 2) + ")" * (n // 2),
    "citations": lambda n: NORMAL + "[1] " * (n // 4),
    "inline math": lambda n: NORMAL + "$x_1^2$ " * (n // 8),
    "one long sentence": lambda n: "FooNet improves BLEU by 2.1 points on WMT14 and " * (n // 48) + "ends.",
    "dashes": lambda n: NORMAL + "-" * n + NORMAL,
    "1-1-1-...": lambda n: NORMAL + "-".join(["1"] * (n // 2)) + " " + NORMAL,
    "1x1x1...": lambda n: NORMAL + "x".join(["1"] * (n // 2)) + " " + NORMAL,
    "1;1;1...": lambda n: NORMAL + ";".join(["1"] * (n // 2)) + " " + NORMAL,
    "parentheses around text": lambda n: NORMAL + "(" * (n // 2) + NORMAL + ")" * (n // 2),
    "$...$ LaTeX": lambda n: NORMAL + "$a_{1}=0.5$ and " * (n // 16) + NORMAL,
    "percent signs": lambda n: NORMAL + "5% " * (n // 3) + NORMAL,
    "capitalised tokens": lambda n: NORMAL + " ".join(f"Foo{i % 50}Net" for i in range(n // 9)) + ". " + NORMAL,
    "list A, B, C": lambda n: NORMAL + "We use " + ", ".join(chr(65 + i % 26) for i in range(n // 3)) + ". " + NORMAL,
    "many short sentences": lambda n: NORMAL + "It is. " * (n // 7),
    "many claim sentences": lambda n: "FooNet reaches 52.1 AP on COCO. " * (n // 32),
    "one sentence of comparisons": lambda n: NORMAL + "FooNet improves accuracy" + ", ".join(
        f" by {i % 9}.1% on Set{i}" for i in range(n // 16)) + ". " + NORMAL,
    "a segment before a list": lambda n: NORMAL + "the model is good and " * (n // 44)
    + ", ".join(["1.5%"] * (n // 12)) + ". " + NORMAL,
    "from x to y, ...": lambda n: NORMAL + "It improves " + ", ".join(
        f"from {i % 9}.1 to {i % 7}.2" for i in range(n // 20)) + ". " + NORMAL,
    "many names": lambda n: NORMAL + "We compare with " + ", ".join(f"Net{i}" for i in range(n // 8)) + ". " + NORMAL,
    "many introduced names": lambda n: NORMAL + " ".join(f"We propose Big{i}Net (BN{i}), a model." for i in range(n // 36)),
    "acronym definitions": lambda n: NORMAL + " ".join(f"Big Fat Net (BFN{i})" for i in range(n // 20)) + ". " + NORMAL,
}


def timed(text: str) -> float:
    t0 = time.thread_time()
    decide(text)
    return time.thread_time() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="5000,10000,20000,40000")
    ap.add_argument("--shapes", default="", help="shape names separated by | (default: all)")
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",")]
    shapes = {k: v for k, v in SHAPES.items() if not args.shapes or k in args.shapes.split("|")}
    decide(NORMAL)
    normal = min(timed(NORMAL) for _ in range(5))
    worst_ratio, worst_time, worst = 0.0, 0.0, ("", "")
    per_char = min(timed(NORMAL * (sizes[-1] // len(NORMAL))) for _ in range(2)) / sizes[-1]
    print(f"normal abstract ({len(NORMAL)} chars): {normal * 1000:.1f} ms; repeated to {sizes[-1]} chars: "
          f"{per_char * 1e6:.1f} us per character")
    print(f"{'shape':28s} " + " ".join(f"{n:>8d}" for n in sizes) + "   t(2n)/t(n) at the largest, time per character against NORMAL repeated")
    for name, make in shapes.items():
        times = [min(timed(make(n)) for _ in range(2)) for n in sizes]
        ratio = times[-1] / max(times[-2], 1e-9)
        if ratio > worst_ratio:
            worst_ratio, worst = ratio, (name, worst[1])
        if times[-1] > worst_time:
            worst_time, worst = times[-1], (worst[0], name)
        print(f"{name:28s} " + " ".join(f"{t:7.3f}s" for t in times) + f"   {ratio:4.1f}"
              f"   {times[-1] / sizes[-1] / per_char:5.1f}x per char", flush=True)
    print(f"worst growth ratio {worst_ratio:.1f} ({worst[0]}; 2 is linear); worst time at {sizes[-1]} chars "
          f"{worst_time:.3f}s ({worst[1]}) = {worst_time / normal:.0f}x a normal abstract's, "
          f"{worst_time / sizes[-1] / per_char:.1f}x its time per character")
    return 0


if __name__ == "__main__":
    sys.exit(main())
