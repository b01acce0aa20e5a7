"""Schedules against closed forms written out independently from the sheets."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from boundcalc import schedules as S
from boundcalc.algorithms import episodes as P  # the cards' schedules by name
from boundcalc.errors import InputError

BUDGET = dict(epsilon=1.0, rho=0.1, alpha=2.0, rdp_epsilon=0.2, d=3, K=10)


@pytest.mark.parametrize("name", ["adac-gope", "adar-gope", "dp-klucb", "dp-imed", "adap-klucb", "dp-se", "adac-ucb",
                                  "adar-ucb", "adac-oful", "adar-oful"])
@pytest.mark.parametrize("T", [1, 2, 7, 1000, 123457, 10**6, 10**15, 10**18])
def test_lengths_sum_to_T(name, T):
    s = P.build(name, T, **BUDGET)
    assert int(sum(int(x) for x in s.length)) == T
    assert int(s.t_end[-1]) == T
    assert np.all(s.length >= 1)
    assert np.all(np.diff(s.t_end) > 0)
    assert list(s.index) == list(range(1, s.count + 1))
    assert s.count <= 60 * math.log(T + 2) + 10 or name.endswith("oful")  # O(log T) rows


def test_c_ell_eq4_written_out():
    # docs/formulas/zcdp-bandits.md §3.1 Eq. 4
    d, K, rho, delta = 3, 10, 0.1, 1e-3
    for l in range(1, 8):
        b = 2.0**-l
        dk = delta / (K * l * (l + 1))
        f = d + 2 * math.sqrt(d * math.log(2 / dk)) + 2 * math.log(2 / dk)
        c = 8 * d / b**2 * math.log(4 / dk) + 2 * d / b * math.sqrt(2 / rho * f)
        assert S.c_ell_zcdp(l, d, K, rho, delta) == pytest.approx(c, rel=1e-13)
    # sheet check 8 reference values
    ref = [1403.4, 5420.8, 21450, 86269, 3.496e5, 1.420e6]
    np.testing.assert_allclose(S.c_ell_zcdp(np.arange(1, 7), d, K, rho, delta), ref, rtol=5e-4)  # sheet values are rounded to 4–5 figures
    s = S.adac_gope(10**6, d, K, rho, delta)
    assert s.count == 6  # zcdp sheet §0: 6 phases start by T = 1e6
    assert s.count <= s.paper_count + 1e-12 + 1
    np.testing.assert_allclose(s.noise_scale, np.sqrt(2 * d / (rho * S.c_ell_zcdp(np.arange(1, 7), d, K, rho, delta))))


def test_adar_gope_eq8_written_out():
    d, K, a, e, delta = 4, 20, 3.0, 0.5, 0.01
    for l in range(1, 6):
        L = math.log(4 * K * l * (l + 1) / delta)
        c = 8 * d * L * 4**l + 2 * d * 2**l * math.sqrt(2 * a / e * d * (d + 1) * L)
        assert S.c_ell_rdp(l, d, K, a, e, delta) == pytest.approx(c, rel=1e-13)
    s = S.adar_gope(10**9, d, K, a, e, delta)
    # phase count bracket: ℓ(T) ≤ 1 + log_4(T/(8d log(8K/δ))) rounded up (rdp sheet §2.3)
    assert s.count <= math.ceil(1 + math.log(1e9 / (8 * d * math.log(8 * K / delta)), 4))


@pytest.mark.parametrize("n1,ratio", [(1, 2.0), (3, 1.5), (1, 1.05), (2, 3.0), (1, 1.001)])
def test_geometric_batches_eq14(n1, ratio):
    T = 10**7
    s = S.dp_klucb(T, 0.5, n1=n1, ratio=ratio)
    assert np.all(s.length >= 1)  # b_m ≥ 1 guard
    # closed form without the guard: cumulative n_m = ceil(n1 α^{m−1}); count = first m with n_m ≥ T
    m_star = next(m for m in range(1, 100000) if math.ceil(n1 * ratio ** (m - 1)) >= T)
    if ratio >= 1.5:  # no guard active: exactly the closed form
        assert s.count == m_star
        assert s.count == max(1, math.ceil(math.log(T / n1, ratio) - 1e-12) + 1)
        for m in range(2, s.count):
            assert s.t_end[m - 1] == math.ceil(n1 * ratio ** (m - 1))
    else:  # guard can only lengthen batches: fewer batches
        assert s.count <= m_star
    np.testing.assert_allclose(s.noise_scale, 2.0)  # Laplace b = 1/ε


def test_guard_needed_close_to_one():
    b = S.geometric_batches(10**4, 1, 1.01)
    raw = np.diff(np.ceil(1.01 ** np.arange(len(b))))
    assert np.any(raw == 0)  # the unguarded formula gives empty batches here
    assert np.all(b >= 1)


@pytest.mark.parametrize("name", ["adap-klucb", "adac-ucb", "adar-ucb"])
def test_per_arm_doubling(name):
    T = 10**6
    s = P.build(name, T, **BUDGET)
    assert s.per_arm
    # lengths 1 (init), 1, 2, 4, …: cumulative 2^{j}; count = 1 + ceil(log2 T)
    assert s.count == 1 + math.ceil(math.log2(T))
    assert list(s.length[:6]) == [1, 1, 2, 4, 8, 16]
    assert s.count <= s.paper_count + 1
    n = np.array([1, 1, 2, 4, 8, 16], float)
    if name == "adac-ucb":
        np.testing.assert_allclose(s.noise_scale[:6], np.sqrt(1 / (2 * 0.1 * n**2)))
    elif name == "adar-ucb":
        np.testing.assert_allclose(s.noise_scale[:6], np.sqrt(2.0 / (2 * 0.2 * n**2)))
    else:
        np.testing.assert_allclose(s.noise_scale[:6], 1 / (1.0 * n))


def test_dp_se_epochs():
    T, K, eps = 10**6, 5, 0.5
    s = S.dp_se(T, K, eps)
    beta = 1 / T
    for e in range(1, s.count):
        R = max(32 * math.log(8 * K * e * e / beta) / 4.0**-e, 8 * math.log(4 * K * e * e / beta) / (eps * 2.0**-e)) + 1
        assert s.length[e - 1] == K * math.floor(R)
        assert s.noise_scale[e - 1] == pytest.approx(1 / (eps * math.floor(R)))
    assert s.count <= math.ceil(s.paper_count)



def test_dp_se_tiny_epsilon_one_epoch_silently():
    # R_1 = 8 ln(16K/beta)/(eps/2) + ... overflows to inf at eps = 1e-300: one epoch covering all of T, no warning
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s = S.dp_se(10**15, 10, 1e-300)
    assert s.count == 1 and s.t_end[-1] == 10**15

def test_oful_approximation_and_paper_bound():
    d, lam, C = 3, 1.0, 1.0
    T = 20000
    s = S.adac_oful(T, d, 0.1, lam, C)
    bound = d * math.log(1 + T / (lam * d)) / math.log(1 + C)
    assert s.paper_count == pytest.approx(bound)
    assert abs(s.count - bound) <= 2
    np.testing.assert_allclose(s.noise_scale, math.sqrt(2 / 0.1))
    # the exact rule on simulated isotropic contexts stays below the paper's bound (+1 for the first episode)
    starts = S.simulate_det_switches(T, d, lam, C, np.random.default_rng(7))
    assert len(starts) <= bound + 1
    assert abs(len(starts) - s.count) <= 0.2 * s.count
    # rdp version: same episodes, noise √(2α/ε)
    r = S.adar_oful(T, d, 2.0, 0.2, lam, C)
    assert r.count == s.count and r.noise_scale[0] == pytest.approx(math.sqrt(2 * 2.0 / 0.2))


@settings(max_examples=40, deadline=None)
@given(T=st.integers(1, 10**12), ratio=st.floats(1.1, 4.0))
def test_property_batches_reach_T(T, ratio):
    s = S.dp_klucb(T, 1.0, ratio=ratio)
    assert int(s.t_end[-1]) == T and np.all(s.length >= 1)
    assert s.count <= math.log(max(T, 1)) / math.log(ratio) + 3


def test_bad_input():
    with pytest.raises(InputError):
        P.build("nope", 10, epsilon=1)
    with pytest.raises(InputError):
        P.build("adac-ucb", 10)  # no rho
    with pytest.raises(InputError):
        P.build("adac-ucb", 0, rho=1)
    with pytest.raises(InputError):
        S.dp_klucb(10, 1.0, ratio=1.0)
    assert P.build("AdaC-UCB", 10, rho=1).algo == "adac-ucb"
