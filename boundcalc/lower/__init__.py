"""Lower-bound machinery for the user's own instances (seed 003 Sec. VI / App. G: Thm 1, Thm 6, Thm 7, Thm 8, Thm 15,
Thm 16; Prop 3's maximal coupling): boundcalc.lower.kl_decomposition."""

from .kl_decomposition import (  # noqa: F401
    arm_kl,
    arm_tv,
    group_privacy_kl,
    group_privacy_renyi,
    implied_lower_bound,
    lower_bound_report,
    maximal_coupling,
    optimal_transport,
    product_kl_bound,
    thm15_f_divergence_bound,
    thm6_kl_bound,
    thm8_kl_bound,
)
