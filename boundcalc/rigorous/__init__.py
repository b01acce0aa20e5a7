"""Rigorous proofs by interval arithmetic with adaptive box subdivision (issue 10 §3).

A verdict is one of "proven on the box" (every box of a finite cover certified by enclosures; never by
samples), "counterexample" (a point where the margin is negative, re-checked at 50 digits with mpmath) or
"undecided" (the boxes left at a limit, listed). Modules (import them directly; this package imports
nothing heavy; the interval arithmetic itself and the enclosures of kl, TV and d_eps are in boundcalc.intervals,
below the bounds, which use them too):

* ``sympy_eval``   natural interval extension of any sympy expression (the bounds' ``expression()``).
* ``prover``       ``prove(margin, box, ...) -> ProofResult``.
* ``deadline``     ``limit(seconds)`` / ``tick()`` / ``TimeLimit``: a time limit that holds inside evaluations.
* ``claims``       ``Claim`` (margin + 50-digit point margin + natural box + statement) and
                   ``inequality(lhs, rhs, op, box)`` and ``comparisons_claim`` for user inequalities (sympy
                   expressions from boundcalc.verify.expression, the one parser; this package parses no text).
* ``bound_calls``  enclosures of registered bounds called by keyword (``bound("ID", T=..., rho=...)``).
* ``provers``      ready-made: d_eps <= kl, d_eps <= eps TV, closed form of d_eps = definition,
                   seed 001 Thm 3.1 >= Eq. 7 (c = 1, 6).
* ``bound_pairs``  every registered lower <= upper pair (incl. seed 003 Thm 9 <= Thm 4 explicit).
"""
