"""Information quantities: kl, Gaussian KL, TV, KL-inf, kl-UCB/LCB, d_eps and the DP indexes of seed 001.

numpy views are vectorised; ``*_mp`` views run at the current ``mpmath.mp.dps``; ``*_sym`` views return
sympy expressions (sympy imported lazily). Sources are cited in each docstring (seed 001 = Azize et al.
2025, "Optimal Regret of Bernoulli Bandits under Global Differential Privacy"; formula sheet
docs/formulas/eps-global-dp-bernoulli.md): kl and KL-inf of seed 001 Eq. 3, d_eps of Eq. 6 / Eq. 8 (Lemma F.1),
d_{eps,inf} of Eq. 9.
"""

from .kl import (
    kl_bernoulli,
    kl_bernoulli_mp,
    kl_bernoulli_sym,
    kl_gaussian,
    kl_gaussian_mp,
    kl_gaussian_sym,
    kl_lcb,
    kl_lcb_mp,
    kl_ucb,
    kl_ucb_mp,
    tv_bernoulli,
    tv_bernoulli_mp,
    tv_bernoulli_sym,
)
from .kl_inf import kl_inf_bernoulli, kl_inf_bernoulli_mp, kl_inf_bernoulli_sym, kl_inf_finite, kl_inf_finite_mp
from .d_eps import (
    d_epsilon,
    d_epsilon_by_optimisation,
    d_epsilon_definition_sym,
    d_epsilon_dual,
    d_epsilon_general,
    d_epsilon_minimiser,
    d_epsilon_minimiser_mp,
    d_epsilon_mp,
    d_epsilon_regime,
    d_epsilon_sym,
    epsilon_threshold,
    epsilon_threshold_mp,
)
from .indexes import dp_imed_index, dp_imed_index_mp, dp_klucb_index, dp_klucb_index_mp, dp_klucb_index_sym

__all__ = [n for n in dir() if not n.startswith("_") and n not in {"kl", "kl_inf", "d_eps", "indexes"}]
