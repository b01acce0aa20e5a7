"""Concentration: Laplace/Gaussian noise-sum tails and private Chernoff bounds (seed 001 §4, App. D, H).

Sources: seed 001 Lemma D.1 (Laplace sum tail), Lemma D.3 and Prop. 4.1 (private Bernoulli sums; the lost
prefactors replaced by the DERIVED forms C0–C3 of formula sheet 001 §4.3), Lemma H.6 (Chernoff via KL),
Lemma H.7 (maximal Hoeffding, finite form DERIVED in sheet §4.6); Gaussian noise per seed 003 Lemma 2.
Every function returns LogProb(log, value): finite logs (or −inf for a zero probability), never NaN.
"""

from ._common import LogProb
from .chernoff import chernoff_kl, maximal_hoeffding
from .exact import binomial_tail_exact, gaussian_private_tail_exact, private_tail_exact
from .gaussian_sum import gaussian_sum_chernoff, gaussian_sum_tail
from .laplace_sum import laplace_sum_chernoff, laplace_sum_closed, laplace_sum_tail, laplace_sum_tail_quad
from .montecarlo import (
    MCResult,
    clopper_pearson,
    mc_gaussian_sum_tail,
    mc_laplace_sum_tail,
    mc_maximal_sum,
    mc_private_tail,
)
from .private_sum import (
    c0_argmin,
    gaussian_private_tail_chernoff,
    private_tail_c0,
    private_tail_c1,
    private_tail_c1_argmin,
    private_tail_c1_best,
    private_tail_c2,
    private_tail_c3,
    private_tail_naive,
    prop41_bound,
    prop41_constant,
)

__all__ = [
    "LogProb", "MCResult", "binomial_tail_exact", "c0_argmin", "chernoff_kl", "clopper_pearson",
    "gaussian_private_tail_chernoff", "gaussian_private_tail_exact", "gaussian_sum_chernoff",
    "gaussian_sum_tail", "laplace_sum_chernoff", "laplace_sum_closed", "laplace_sum_tail",
    "laplace_sum_tail_quad", "maximal_hoeffding", "mc_gaussian_sum_tail", "mc_laplace_sum_tail",
    "mc_maximal_sum", "mc_private_tail", "private_tail_c0", "private_tail_c1", "private_tail_c1_argmin", "private_tail_c1_best",
    "private_tail_c2", "private_tail_c3", "private_tail_exact", "private_tail_naive", "prop41_bound",
    "prop41_constant",
]
