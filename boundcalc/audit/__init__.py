"""Empirical privacy audit (issue 10 §4): run an algorithm on neighbouring inputs, estimate a lower bound on the ε it
achieves from the frequencies of declared output events (Clopper–Pearson), compare it with the claimed ε.

``estimator`` (the statistics), ``scenarios`` (neighbouring inputs and events per algorithm), ``mutants``
(deliberately broken copies), ``run`` (``run_audit`` -> ``AuditResult``). An audit can only give a lower bound.
"""

from .mutants import MUTANTS
from .run import AuditResult, run_audit
from .scenarios import SCENARIOS

__all__ = ["MUTANTS", "SCENARIOS", "AuditResult", "run_audit"]
