"""Benchmark: rigorous proofs (boundcalc.rigorous) on their natural boxes, with both interval backends.

For each information-quantity claim of issue 10 §3 (d_eps <= kl, d_eps <= eps TV, closed form of d_eps =
definition, seed 001 Thm 3.1 >= Eq. 7 for c in {1, 6}), every registered lower <= upper pair and a
non-trivial generic claim (d_eps <= eps, tight at a corner of its box only through the subdivision), prints
the verdict, the number of boxes in the final cover, the evaluations and the wall time, and writes
benchmarks/RESULTS_proofs.md. Target: each information-quantity proof under a minute on 2 cores.

    python3 benchmarks/bench_proofs.py            # writes RESULTS_proofs.md
    python3 benchmarks/bench_proofs.py --quick    # flint backend only, prints only
"""

from __future__ import annotations

import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from boundcalc.rigorous import bound_pairs as BP  # noqa: E402
from boundcalc.intervals import enclosures as en  # noqa: E402
from boundcalc.intervals import interval as ivm  # noqa: E402
from boundcalc.rigorous import provers as P  # noqa: E402
from boundcalc.rigorous.claims import inequality  # noqa: E402
from boundcalc.verify.expression import to_sympy as S  # noqa: E402  (the one restricted parser)
from boundcalc.intervals.interval import Interval  # noqa: E402

TARGET_S = 60.0


def _row(name, r, wall):
    ok = "ok" if (r.proven and wall < TARGET_S) else ("slow" if r.proven else r.verdict)
    return f"| {name} | {r.verdict} | {r.boxes} | {r.evaluations} | {wall:.3f} | {ok} |"


def info_rows():
    rows = []
    claims = dict(P.INFO_PROVERS)
    box = {"mu": (0.01, 0.99), "mu_star": (0.02, 1.0), "epsilon": (1e-3, 10.0)}
    claims["generic: d_eps(mu, mu_star, epsilon) <= epsilon (plain enclosures, no identity)"] = \
        lambda: inequality(S("d_eps(mu, mu_star, epsilon)"), S("epsilon"), "<=", box).prove()
    claims["generic: d_eps(mu, mu_star, epsilon) <= kl(mu, mu_star) (issue's example box)"] = \
        lambda: inequality(S("d_eps(mu, mu_star, epsilon)"), S("kl(mu, mu_star)"), "<=", box).prove()
    for name, f in claims.items():
        t0 = time.perf_counter()
        r = f()
        rows.append(_row(name, r, time.perf_counter() - t0))
    return rows


def pair_rows():
    rows = []
    for lo, up in BP.registered_pairs():
        try:
            claim = BP.pair_claim(lo, up)
        except ValueError:
            rows.append(f"| {lo.id} <= {up.id} | not comparable (no common budget) | – | – | – | – |")
            continue
        t0 = time.perf_counter()
        r = claim.prove(max_seconds=120)
        rows.append(_row(f"{lo.id} <= {up.id}", r, time.perf_counter() - t0))
    return rows


def enclosure_rate(n=2000):
    import random

    rng = random.Random(0)
    boxes = []
    for _ in range(n):
        x = sorted((rng.random(), rng.random()))
        y = sorted((rng.random(), rng.random()))
        e = sorted((rng.uniform(1e-3, 10), rng.uniform(1e-3, 10)))
        boxes.append((Interval(*x), Interval(*y), Interval(*e)))
    t0 = time.perf_counter()
    for X, Y, E in boxes:
        en.d_eps_range(X, Y, E)
    return n / (time.perf_counter() - t0)


def heavy_pair():
    t0 = time.perf_counter()
    r = BP.prove_pair("001-eq7-c1", "001-thm4.3-dp-klucb", split="widest", max_seconds=300)
    return r, time.perf_counter() - t0


CHECK_CASES = [
    ("d_eps(mu, mu_star, epsilon) <= kl(mu, mu_star)", "mu=0.01:0.99,mu_star=0.02:1,epsilon=1e-3:10"),
    ("d_eps(x, y, e) <= e * tv(x, y) / 2", "x=0:1,y=0:1,e=1e-3:10"),
    ("d_eps(x, y, e) <= e", "x=0.1:0.9,y=0.1:0.9,e=0.1:2"),
    ('bound("003-thm9", T=T, rho=rho) <= bound("003-thm4-explicit", T=T, rho=rho)', "T=10:1e9,rho=1e-8:1"),
    ('bound("001-lai-robbins", T=T) <= bound("001-thm4.3-dp-klucb", T=T, epsilon=e)', "T=10:1e9,e=0.01:10"),
    ("min(1, x) <= 2 * log(1 + x)", "x=0:1"),
]


def check_rows():
    """`boundcalc check` end to end (parse, validation grid, proof; the grid after an undecided proof)."""
    from boundcalc.verify import check as ck

    rows = []
    for text, box in CHECK_CASES:
        t0 = time.perf_counter()
        out = ck.run(text, box, max_seconds=10)
        rows.append(f"| `{text}` | `{box}` | {out.method} | {out.verdict} | {time.perf_counter() - t0:.3f} |")
    return rows


def main(quick=False):
    lines = ["# Rigorous proofs: time and boxes on the natural boxes", "",
             f"_Machine: {platform.machine()}, Python {platform.python_version()}; "
             f"backends available: {', '.join(ivm.available_backends())}; single process._", ""]
    backends = ivm.available_backends()[:1] if quick else ivm.available_backends()
    for b in backends:
        with ivm.using_backend(b):
            lines += [f"## Backend `{b}`", "",
                      f"d_eps enclosure over random boxes: **{enclosure_rate():,.0f} boxes/s**", "",
                      "### Information-quantity claims (seed 001), natural box x, y in [0, 1], eps in [1e-3, 10]", "",
                      "| claim | verdict | boxes | evaluations | wall (s) | target < 60 s |", "|---|---|---|---|---|---|"]
            lines += info_rows()
            lines += ["", "### Registered lower <= upper pairs (natural boxes of bound_pairs.default_box)", "",
                      "| pair | verdict | boxes | evaluations | wall (s) | |", "|---|---|---|---|---|---|"]
            lines += pair_rows()
            lines += ["", "### `boundcalc check` end to end (default method; max 10 s per proof)", "",
                      "| expression | box | method | verdict | wall (s) |", "|---|---|---|---|---|"]
            lines += check_rows()
            r, w = heavy_pair()
            lines += ["", f"Heavier run (001-eq7-c1 <= 001-thm4.3-dp-klucb with the plain 'widest' bisection): "
                      f"{r.verdict}, {r.boxes} boxes, {r.evaluations} evaluations, **{w:.2f} s**.", ""]
    text = "\n".join(lines) + "\n"
    print(text)
    if not quick:
        (Path(__file__).resolve().parent / "RESULTS_proofs.md").write_text(text)


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
