"""boundcalc.privacy.mechanisms.TreeNoise: the binary-tree (continual counting) noise, chunked and batched.

The expected values are built here from the definition of the tree mechanism (Dwork et al. 2010; Chan, Shi &
Song 2011), independently of TreeNoise's bookkeeping: the prefix 1..t is the union of the dyadic blocks
[e - 2^i + 1, e], e = 2^i floor(t/2^i), one per set bit i of t; a dict maps each block to its noise, drawn on
the block's first use and kept ("memo") or drawn at every use ("fresh"), in the documented order (t ascending,
set bits ascending), from the same Generator. TreeNoise must reproduce it for any chunking (exactly, up to the
order in which the node noises are added).
"""

import math

import numpy as np
import pytest

from boundcalc.errors import InputError
from boundcalc.privacy.mechanisms import TreeNoise, tree_prefix_nodes


def _scale(levels, ends):
    """An arbitrary node scale that depends on the level and the block end (as seed 004's dynamic sensitivity)."""
    return 1.0 + 0.5 * np.asarray(levels) + 10.0 / np.asarray(ends)


def _dict_tree(T, shape, rng, tree):
    blocks = {}
    out = []
    for t in range(1, T + 1):
        eta = np.zeros(shape)
        for i in range(t.bit_length()):
            if (t >> i) & 1:
                e = (t >> i) << i
                s = e - 2**i + 1
                if tree == "fresh" or (s, e) not in blocks:
                    blocks[(s, e)] = rng.laplace(0.0, float(_scale(i, e)), shape)
                eta = eta + blocks[(s, e)]
        out.append(eta)
    return np.array(out)


@pytest.mark.parametrize("tree", ["memo", "fresh"])
@pytest.mark.parametrize("chunks", [[37], [1] * 37, [5, 1, 16, 15], [32, 5]])
def test_tree_noise_equals_the_dictionary_tree(tree, chunks):
    T, shape = 37, (3, 2)
    want = _dict_tree(T, shape, np.random.default_rng(9), tree)
    src = TreeNoise(T, shape, _scale, np.random.default_rng(9), tree=tree)
    got, scales = [], []
    for c in chunks:
        eta, sc = src.next(c)
        got.append(eta)
        scales.append(sc)
    # equal up to the order of the floating-point additions of the nodes
    assert np.allclose(np.concatenate(got), want, rtol=1e-13, atol=1e-12)
    whole, _ = TreeNoise(T, shape, _scale, np.random.default_rng(9), tree=tree).next(T)
    assert np.array_equal(np.concatenate(got), whole)  # bit-identical whatever the chunking
    sc = np.concatenate(scales)
    for t in (1, 6, 7, 32, 37):  # node scales of the decomposition, from tree_prefix_nodes
        nodes = tree_prefix_nodes(t)
        expect = sorted(float(_scale(round(math.log2(e - s + 1)), e)) for s, e in nodes)
        assert sorted(sc[t - 1][sc[t - 1] > 0]) == pytest.approx(expect, rel=1e-15)


def test_memo_and_fresh_differ_exactly_where_the_tree_reuses_nodes():
    """memo: eta_t - eta_{t - lowbit(t)} is the one new node; so eta_4 is contained in eta_5, eta_6, eta_7."""
    T, shape = 8, (1000,)
    memo, _ = TreeNoise(T, shape, _scale, np.random.default_rng(1), tree="memo").next(T)
    fresh, _ = TreeNoise(T, shape, _scale, np.random.default_rng(1), tree="fresh").next(T)
    for t in (5, 6, 7):
        c_memo = np.corrcoef(memo[3], memo[t - 1])[0, 1]
        c_fresh = np.corrcoef(fresh[3], fresh[t - 1])[0, 1]
        assert c_memo > 0.3 and abs(c_fresh) < 0.15
    assert np.array_equal(memo[0], fresh[0])  # t = 1: one node, the first draw in both


def test_tree_noise_bad_input():
    with pytest.raises(InputError):
        TreeNoise(10, (2,), _scale, np.random.default_rng(0), tree="per-call")
    src = TreeNoise(4, (2,), _scale, np.random.default_rng(0))
    src.next(3)
    with pytest.raises(InputError):
        src.next(2)  # past T
