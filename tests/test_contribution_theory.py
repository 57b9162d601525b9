"""Convergence analyses and equivalence results are theory (the guideline's contribution
conventions); a method paper that mentions convergence stays a method."""

from __future__ import annotations

from extract.decision import decide


def test_a_convergence_analysis_is_theory():
    text = ("We study the convergence of stochastic gradient descent for non-convex objectives. We prove "
            "that SGD converges at rate O(1/sqrt(T)) and establish a matching lower bound.")
    assert decide(text)["contribution"] == "theory"


def test_a_method_that_converges_is_a_method():
    text = "We propose FooNet, a new method for image retrieval that converges faster than prior work."
    assert decide(text)["contribution"] == "method"


def test_an_introduced_method_with_a_few_theory_words_is_a_method():
    # two words of theory ("optimal", "complexity") do not make an abstract of proofs
    text = ("We propose novel approximation algorithms for the earth mover's distance that achieve linear "
            "time complexity while remaining optimal on real data.")
    assert decide(text)["contribution"] == "method"


def test_two_theory_words_beside_experiments_need_a_proof():
    """"theoretical guarantees" said of prior work: with experiments and no proof
    the paper is a method; "we prove" keeps it theory."""
    from extract.candidates.contribution import contribution_hint
    text = ("Randomized smoothing gives theoretical guarantees for segmentation. We address certifying "
            "segmentation with diffusion models. Our experiments show a better trade-off on two datasets.")
    assert contribution_hint(text) == "method"
    assert contribution_hint(text.replace("We address", "We prove a bound for")) == "theory"


def test_six_theory_words_make_an_introduced_algorithm_theory_without_the_word_prove():
    """A bandit or optimization paper speaks of regret, minimax rates and sample complexity
    rather than of proofs: six such words (formulas counted) and no experiment are theory; the
    same algorithm reported on datasets, or with four such words, stays a method."""
    from extract.candidates.contribution import contribution_hint
    text = ("We propose an algorithm for online regression whose regret matches the minimax rate. Its "
            "sample complexity is optimal, and its convergence is characterized in every regime.")
    assert contribution_hint(text) == "theory"
    assert contribution_hint(text + " Experiments on three datasets confirm it.") == "method"
    assert contribution_hint(text.replace(", and its convergence is characterized in every regime", "")) == "method"


def test_our_approaches_in_the_plural_make_a_method_beside_a_proof():
    """"our approaches ... our approaches" is the paper's own method as "our approach" is;
    a proof about it does not make the paper theory."""
    from extract.candidates.contribution import contribution_hint
    text = ("We consider transferability estimation for regression. We prove theoretical results connecting "
            "our approaches to the optimal target models. Our approaches outperform prior estimators.")
    assert contribution_hint(text) == "method"
    assert contribution_hint(text.replace("our approaches", "them").replace("Our approaches", "They")) == "theory"


def test_what_the_paper_addresses_by_introducing_is_a_method_whatever_its_head_noun():
    """"We address this problem by introducing differentiable surrogates": the paper makes
    something, though "surrogates" is no method noun; "by introducing the notion of" is not."""
    from extract.candidates.contribution import contribution_hint
    text = ("User models are slow. We address this problem by introducing differentiable surrogates for "
            "bypassing this bottleneck. We find experimentally that inference becomes fast.")
    assert contribution_hint(text) == "method"
    assert contribution_hint(text.replace("differentiable surrogates", "the notion of surrogates")) == "analysis"


def test_a_title_whose_part_after_the_colon_says_study_is_an_analysis_unless_its_head_is_a_name():
    """"...: A Neural Machine Translation Case Study", "...: An Analysis", "...: A Survey of" say
    the paper is a study; "A Human-Free Approach to Summary Evaluation" does not (the study word
    belongs to a prepositional phrase), nor does "CILex: An Investigation of" when the paper
    introduces CILex."""
    from extract.candidates import find_candidates
    from extract.candidates.contribution import contribution_hint

    def hint(text, title):
        return contribution_hint(text, find_candidates(text, title).names, title)
    text = "We propose to compare three systems on long sentences. Our results show that they differ."
    assert hint(text, "The Paradox of Compositionality: A Neural Machine Translation Case Study") == "analysis"
    assert hint(text, "Event Cameras and Reward Functions: An Analysis") == "analysis"
    assert hint(text, "Play the Shannon Game: A Human-Free Approach to Summary Evaluation") == "method"
    named = ("We proposed CILex, which uses sentence embeddings for lexical substitution. CILex is the "
             "state of the art on two datasets.")
    assert hint(named, "CILex: An Investigation of Context Information for Lexical Substitution") == "method"


def test_bounds_count_as_theory_words_in_every_form():
    """"is upper bounded by", "a lower-bound" are the theory words "upper bound", "lower bound"."""
    from extract.candidates.contribution import _THEORY
    from extract.text.literal import folded
    text = "Its regret is upper bounded by a sum of gaps, and a matching lower-bound holds; upper bounds too."
    assert len(_THEORY.findall(folded(text))) == 4


def test_our_artifact_may_carry_modifiers():
    """"our failure-adaptive control framework ... our 3D crop reconstruction algorithm": the paper
    makes something, as with "our method"; "our own results" and "our analysis" make nothing."""
    from extract.candidates.contribution import contribution_hint
    text = ("This work seeks a control algorithm that adapts to failures. Our failure-adaptive control framework "
            "learns failure probabilities, and we find that our 3D crop reconstruction algorithm is robust.")
    assert contribution_hint(text) == "method"
    assert contribution_hint(text.replace("Our failure-adaptive control framework", "Our own results")
                             .replace("our 3D crop reconstruction algorithm", "our analysis")) == "analysis"


def test_a_finding_proved_without_experiments_is_theory():
    """"We study the landscape ... we prove that every local minimum is global": the analysis
    words say what is studied, the proof and the absence of experiments say how."""
    from extract.candidates.contribution import contribution_hint
    text = ("In this paper, we study the landscape of neural networks for binary classification. Under mild "
            "assumptions, we prove that after adding one neuron every local minimum is a global minimum.")
    assert contribution_hint(text) == "theory"
    assert contribution_hint(text + " Experiments on two datasets agree.") == "analysis"


def test_an_analysis_presented_also_is_beside_the_method():
    """The guideline's analysis has no new method: "we also present an analysis" after what
    the paper introduces leaves it a method paper; an analysis presented alone is one."""
    text = ("We introduce a new type of deep word representation that models syntax and semantics. "
            "We also present an analysis showing that its internals are crucial.")
    assert decide(text)["contribution"] == "method"
    assert decide(text.replace("We also present", "We present"))["contribution"] == "analysis"
