"""Digits of a formula that state no quantity are no numbers (issue 17 item 4): interval and set
domains, bounds of a variable by 0 or 1, index ranges, digits inside an open exponent or
subscript group; assignments and measured values stay."""

from __future__ import annotations

import pytest

from extract.candidates import find_numbers


@pytest.mark.parametrize("text", [
    r"for a discount factor $\gamma \in (0,1)$ and $p \in [1, 2)$",
    r"the label space is $Y = \{0, 1, 2\}$ here",
    r"for some $\delta > 0$ and every $\beta \leq 1$",
    r"we sum $\sum_{i=1}^{n} x_i$ over the rows",
    r"the points $x_i$ for $i = 1, 2, \dots, n$",
    r"in $O(k^{\lceil p/2 \rceil + 1} \log k)$ time and O(T^(1-a)) regret",
])
def test_formula_digits_are_no_numbers(text):
    assert [n.text for n in find_numbers(text)] == []


@pytest.mark.parametrize("text, numbers", [
    (r"we set $k = 10$ and a privacy budget (epsilon, delta)=(3, 1e-5)", ["$k = 10$", "3", "1e-5"]),
    (r"FooNet reaches 91.2% accuracy (vs. 88.1%) with $\lambda = 0.5$", ["91.2%", "88.1%", r"$\lambda = 0.5$"]),
    (r"a bound of $O(1.5^n)$ and accuracy > 90%", ["90%"]),
])
def test_quantities_next_to_formulas_stay(text, numbers):
    assert [n.text for n in find_numbers(text)] == numbers
