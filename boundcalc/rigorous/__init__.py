"""Rigorous proofs by interval arithmetic with adaptive box subdivision (issue 10 §3).

``prove`` certifies an inequality margin >= 0 on a box of parameters, or returns a counterexample
re-checked at 50 digits, or the boxes it could not decide. ``provers`` holds the ready-made claims
(d_eps <= kl, d_eps <= eps TV, closed form of d_eps = definition, seed 001 Thm 3.1 >= Eq. 7, seed 003
Thm 9 <= Thm 4 explicit, every registered lower <= upper pair). Import the submodules directly; this
package imports nothing heavy.
"""
