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
    # constants of a formula: an additive term, a fraction's parts, a set, an interval, a limit
    r"the bound $2d+1$ (vs. $2^{d+1}-1$) on a $(d+1)$-partite graph with $k+2$ samples",
    r"the midrange $\frac{Y_{(n)}+Y_{(1)}}{2}$ and $(\frac{N}{B} - 1)$ and $\OM({1}/{\epsilon^4})$",
    r"on the hypercube $\{\pm 1\}^n$ with values in $\{0,1,\ldots,k-1\}$ and $\alpha$ in $(0, 2]$",
    r"when $0 < \alpha < 1$, as $\epsilon \to 0$, for $\epsilon_2\ll 1$ and $f(S) \geq 0$",
    r"within a factor $1\pm \epsilon$ and the indicator ${\bf 1}\{y \leq f(x)\}$",
    # enumerators: 1) 2) without an open parenthesis, "1. " opening a sentence
    r"Two problems remain: 1) the cost is high, and 2) the recall is low. 1. It is slow.",
    # citation keys and names: author-year, a bracket holding a year, venue'year, a name's digit set
    r"as shown (Jiang et al., 2017; Zanette et al. 2020) and by Li et al. 2019 (FOCS 2015).",
    r"studied in Chapelle and Li [2011] and [SIAM J. Comput. 1998, 28, 1136–1153] before",
    r"the algorithms of Chin et al. (ITCS ’12) and (AAAI '17), known since the mid ’90s",
    r"an open question of COLT’22, tested on THUMOS'14 with ResNet-\{18, 34, 50\} in the $3$D space",
    # a year that labels an event or a thing; a dimension written with a hyphen, as "3D" is
    r"won the 2019 LVIS challenge, on the 2017 WMT Metrics Shared Task and the 2018 n2c2 shared task",
    r"a 1-D curve in the domain, 2-D plots and 3-D scenes",
    # the numbers of names, and the numbers listed right after one
    r"open Problems 1, 3 and 4 on PASCAL VOC 2007 and 2012 with XGLM 2.9B, 4.5B, and 7.5B and AceGPT 7B",
])
def test_formula_digits_are_no_numbers(text):
    assert [n.text for n in find_numbers(text)] == []


@pytest.mark.parametrize("text, numbers", [
    (r"we set $k = 10$ and a privacy budget (epsilon, delta)=(3, 1e-5)", ["$k = 10$", "3", "1e-5"]),
    (r"FooNet reaches 91.2% accuracy (vs. 88.1%) with $\lambda = 0.5$", ["91.2%", "88.1%", r"$\lambda = 0.5$"]),
    # the numeric base of an exponential bound is a quantity; its exponent and O(1) are not
    (r"a bound of $O(1.5^n)$ (was O*(2.85^k), $O(1)$ space) and accuracy > 90%", ["1.5", "2.85", "90%"]),
    (r"with a small batch (e.g., 2) and error < 1% (at most 1)", ["2", "1%", "1"]),
    (r"models at three scales (1.7B 7B and 13B parameters), 23.6 FPS on iPhone 8 and 125 FPS", ["1.7B", "7B", "13B",
                                                                                               "23.6", "125"]),
    # a count after a year-like number stays a count; a 3-DoF arm states its degrees of freedom
    (r"we label the 2000 images and the 1950 COCO images with a 3-DoF arm", ["2000", "1950", "3"]),
])
def test_quantities_next_to_formulas_stay(text, numbers):
    assert [n.text for n in find_numbers(text)] == numbers
