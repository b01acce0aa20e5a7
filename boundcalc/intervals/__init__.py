"""Interval arithmetic, a numeric primitive below the bounds and the prover (issue 23 item 5: layers that hold for
every import). Modules (import them directly; this package imports nothing heavy):

* ``interval``     Interval with outward-rounded float endpoints; elementary functions through python-flint's arb
                   balls (the ``proofs`` extra) or mpmath.iv (``use_backend``, $BOUNDCALC_INTERVAL_BACKEND).
* ``enclosures``   kl, TV, d_eps (seed 001) over boxes, and the identity margins kl - d_eps, eps TV - d_eps; their
                   arguments' domains come from boundcalc.domains.

The quantities' interval views (boundcalc.bounds.quantities) and the prover (boundcalc.rigorous) both use them.
"""
