"""Benchmark: vectorised d_eps, kl-UCB and DP-KLUCB index on 1e6 points vs a scalar brentq loop.

The scalar loop is timed on a sample and extrapolated to 1e6 points. Prints a markdown table; run
`python3 benchmarks/bench_info.py > benchmarks/RESULTS_info.md` style (the script writes the file itself).
"""

from __future__ import annotations

import math
import platform
import time
from pathlib import Path

import sys

import numpy as np
from scipy.optimize import brentq

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from boundcalc.info import d_epsilon, dp_klucb_index, kl_ucb  # noqa: E402

N_POINTS = 1_000_000
SAMPLE = 2_000


def _timeit(fn, repeat=3):
    best = math.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def scalar_kl(x, y):
    if x == y:
        return 0.0
    r = 0.0
    if x > 0:
        r += x * math.log(x / y) if y > 0 else math.inf
    if x < 1:
        r += (1 - x) * math.log((1 - x) / (1 - y)) if y < 1 else math.inf
    return r


def scalar_d_eps(x, y, e):
    """Scalar reference: the definition (Eq. 6) by brentq on the stationarity condition of the z-problem."""
    if x == y:
        return 0.0
    if y in (0.0, 1.0):  # kl(z, y) = inf off z = y: the minimiser is z = y
        return e * abs(x - y)
    lo, hi = min(x, y), max(x, y)
    s = 1.0 if x < y else -1.0  # d/dz [e |z - x|] = s e on the segment

    def g(z):  # derivative of e|z-x| + kl(z, y) in z
        return s * e + math.log(z / (1 - z)) - math.log(y / (1 - y))

    a, b = max(lo, 1e-15), min(hi, 1 - 1e-15)
    if g(a) >= 0:
        z = a
    elif g(b) <= 0:
        z = b
    else:
        z = brentq(g, a, b, xtol=1e-15)
    return e * abs(z - x) + scalar_kl(z, y)


def scalar_kl_ucb(x, level):
    if level == 0 or x == 1:
        return x if level == 0 else 1.0
    b = 1 - 1e-16
    if scalar_kl(x, b) <= level:
        return b
    return brentq(lambda q: scalar_kl(x, q) - level, x, b, xtol=1e-15)


def scalar_dp_klucb(x, N, t, e):
    L = math.log(t) / N
    if e * (1 - x) <= L:
        return 1.0
    return brentq(lambda q: N * scalar_d_eps(x, q, e) - math.log(t), x, 1.0, xtol=1e-15)


def main():
    rng = np.random.default_rng(0)
    x = rng.uniform(0.01, 0.99, N_POINTS)
    y = rng.uniform(0.01, 0.99, N_POINTS)
    e = 10 ** rng.uniform(-2, 1, N_POINTS)
    lev = 10 ** rng.uniform(-4, 0.5, N_POINTS)
    Nn = rng.integers(1, 10_000, N_POINTS).astype(float)
    t = rng.integers(10, 10**6, N_POINTS).astype(float)

    rows = []
    cases = [
        ("d_eps (closed form)", lambda: d_epsilon(x, y, e), lambda i: scalar_d_eps(x[i], y[i], e[i])),
        ("kl-UCB (Newton in logit)", lambda: kl_ucb(x, lev), lambda i: scalar_kl_ucb(x[i], lev[i])),
        ("DP-KLUCB index (Eq. 12)", lambda: dp_klucb_index(x, Nn, t, e), lambda i: scalar_dp_klucb(x[i], Nn[i], t[i], e[i])),
    ]
    for name, vec, scal in cases:
        tv, out = _timeit(vec)
        idx = rng.choice(N_POINTS, SAMPLE if "DP-KLUCB" not in name else SAMPLE // 10, replace=False)
        t0 = time.perf_counter()
        ref = np.array([scal(i) for i in idx])
        ts = (time.perf_counter() - t0) / idx.size * N_POINTS
        err = float(np.max(np.abs(out[idx] - ref)))
        rows.append((name, tv, N_POINTS / tv, ts, ts / tv, idx.size, err))

    lines = [
        "# Benchmark: boundcalc.info vectorised evaluation (benchmarks/bench_info.py)",
        "",
        f"Machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
        f"numpy {np.__version__}. {N_POINTS:.0e} random points; scalar loop timed on a sample and extrapolated.",
        "Targets: >= 1e6 evaluations/s and >= 10x the scalar brentq loop.",
        "",
        "| quantity | vectorised time (1e6) | evals/s | scalar loop (extrapolated 1e6) | speed-up | sample | max abs diff vs scalar |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, tv, rate, ts, sp, ns, err in rows:
        ok = "ok" if rate >= 1e6 and sp >= 10 else "BELOW TARGET"
        lines.append(f"| {name} | {tv:.3f} s | {rate:.2e} | {ts:.1f} s | {sp:.0f}x ({ok}) | {ns} | {err:.1e} |")
    text = "\n".join(lines) + "\n"
    print(text)
    Path(__file__).with_name("RESULTS_info.md").write_text(text)


if __name__ == "__main__":
    main()
