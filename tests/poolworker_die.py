"""A rules worker (``python -m poolworker_die``) whose one function, ``echo``, kills its own
process on the text "die": how tests/test_rules_pool.py makes an abstract kill its worker."""

import os

from extract.pool_worker import main


def echo(text: str) -> str:
    if text == "die":
        os._exit(9)
    return text.upper()


if __name__ == "__main__":
    main({"echo": echo})
