"""The run's progress on stderr: a tqdm bar with a total when it is cheap to know, a
"loading model" stage before the first answer, rate and ETA, left on screen at the end.
tqdm is imported only when a bar is shown (stderr a terminal, or ``--progress``)."""

from __future__ import annotations

import sys


class Progress:
    """What :meth:`extract.pipeline.Extractor.run` updates (``update(n)``).  ``enabled``:
    True shows the bar, False hides it, None shows it when stderr is a terminal."""

    def __init__(self, total: int | None, enabled: bool | None, stage: str = "loading model"):
        if enabled is None:
            enabled = bool(getattr(sys.stderr, "isatty", lambda: False)())
        self.bar = None
        if enabled:
            from tqdm import tqdm

            self.bar = tqdm(file=sys.stderr, total=total, unit=" abstracts", dynamic_ncols=True,
                            leave=True, smoothing=0.1, desc=stage or None)
        self._started = False

    def update(self, n: int = 1) -> None:
        if self.bar is None:
            return
        if not self._started:
            self._started = True
            self.bar.set_description_str("extracting", refresh=False)
        self.bar.update(n)

    def write(self, line: str) -> None:
        """A line on stderr that does not tear the bar."""
        if self.bar is None:
            print(line, file=sys.stderr, flush=True)
        else:
            self.bar.write(line, file=sys.stderr)

    def close(self) -> None:
        if self.bar is None:
            return
        self.bar.set_description_str("done", refresh=False)
        self.bar.close()
