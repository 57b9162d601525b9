"""A rules worker (``python -m poolworker_die``) whose one function, ``echo``, kills its own
process on the text "die": how tests/test_rules_pool.py makes an abstract kill its worker.
With ``POOLWORKER_GO`` set, it says it is ready only once that file exists (a slow start)."""

import os
import time

from extract.pool_worker import main


def echo(text: str) -> str:
    if text == "die":
        os._exit(9)
    return text.upper()


if __name__ == "__main__":
    go = os.environ.get("POOLWORKER_GO")
    while go and not os.path.exists(go):
        time.sleep(0.01)
    main({"echo": echo})
