"""The run's progress on stderr: a tqdm bar with a total when it is cheap to know, a
"loading model" stage before the first answer, rate and ETA, left on screen at the end."""

from __future__ import annotations

import sys

from tqdm import tqdm


class Progress:
    """What :meth:`extract.pipeline.Extractor.run` updates (``update(n)``)."""

    def __init__(self, total: int | None, enabled: bool | None, stage: str = "loading model"):
        self.bar = tqdm(file=sys.stderr, total=total, unit=" abstracts", dynamic_ncols=True,
                        leave=True, disable=enabled is False if enabled is not None else None,
                        smoothing=0.1, desc=stage or None)
        self._started = False

    def update(self, n: int = 1) -> None:
        if not self._started:
            self._started = True
            self.bar.set_description_str("extracting", refresh=False)
        self.bar.update(n)

    def write(self, line: str) -> None:
        """A line on stderr that does not tear the bar."""
        if self.bar.disable:
            print(line, file=sys.stderr, flush=True)
        else:
            self.bar.write(line, file=sys.stderr)

    def close(self) -> None:
        if not self.bar.disable:
            self.bar.set_description_str("done", refresh=False)
        self.bar.close()
