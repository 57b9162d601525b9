"""How the rule layer's time grows with the length of hostile text (issue 20, "Hangs").

    python bench/rules_adversarial.py [--sizes 2500,5000,10000,20000]

Feeds the whole rules decision (``extract.decision.decide``: candidates, names, claims,
task) shapes that used to make it quadratic - long runs of spaces or line breaks, ``1,1,1,...``,
numbers and separators, brackets, one long sentence of claims, many names - at each size, and
prints per shape the seconds per size and the growth ratio t(2n)/t(n) at the largest size
(linear: about 2; quadratic: about 4), then the worst ratio and the worst time as a multiple
of a normal abstract's time.  No figure is a pass/fail here: speed targets live in bench/.
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
}


def timed(text: str) -> float:
    t0 = time.perf_counter()
    decide(text)
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="2500,5000,10000,20000")
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",")]
    decide(NORMAL)
    normal = min(timed(NORMAL) for _ in range(5))
    worst_ratio, worst_time = 0.0, 0.0
    print(f"normal abstract ({len(NORMAL)} chars): {normal * 1000:.1f} ms")
    for name, make in SHAPES.items():
        times = [min(timed(make(n)) for _ in range(2)) for n in sizes]
        ratio = times[-1] / max(times[-2], 1e-9)
        worst_ratio, worst_time = max(worst_ratio, ratio), max(worst_time, times[-1])
        print(f"{name:24s} " + " ".join(f"{t:7.3f}s" for t in times) + f"   t(2n)/t(n) {ratio:4.1f}")
    print(f"worst growth ratio {worst_ratio:.1f} (2 is linear); worst time at {sizes[-1]} chars "
          f"{worst_time / normal:.0f}x a normal abstract's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
