"""HetRec 2011 Last.fm data as a contextual bandit: seed 004 Sec. 4, Figures 1(b) and 2(c).

Preprocessing as seed 004 Sec. 4 describes it:

* payoff: 1 if the user listened to the artist at least once (``user_artists.dat``), else 0;
* artist features: TF-IDF of the tags users gave the artist (``user_taggedartists.dat``), reduced by PCA to d = 25;
  tf(a, g) = (assignments of tag g to artist a) / (assignments to a), idf(g) = log(N / n_g), N the tagged artists,
  n_g those with tag g; the PCA projects the centred TF-IDF rows on their first d principal axes; the result is scaled
  so that max ‖x‖ = 1 (L = 1 of seed 004's assumption ‖x‖ ≤ L);
* each round: a user drawn uniformly (among users with a listened, tagged artist), an arm pool of 25 artists: one
  drawn from the user's listened artists and 24 from the artists the user did not listen to (without replacement),
  in a random order.

The regret counted by the engine is the number of rounds the listened artist was not chosen (the best payoff is 1 in
every pool), so the cumulative reward is t − R_t and the paper's reward ratio against the uniformly random policy,
whose expected reward is 1/K per round, is (t − R_t)/(t/K) (:func:`reward_ratio`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from .. import validate
from ..envs.contextual import ContextualLinearEnv
from ..errors import InputError

D, POOL = 25, 25  # seed 004 Sec. 4
FILES = ("user_artists.dat", "user_taggedartists.dat")
KEYS_MAX = 4_000_000  # rows x artists up to which the negatives are drawn by random keys (else by rejection)


@dataclass
class LastFMData:
    """Artist features (N, d), the tagged artists' ids, and per user the indices of the listened artists (CSR)."""

    features: np.ndarray
    artist_ids: np.ndarray
    user_ids: np.ndarray
    ptr: np.ndarray
    listened: np.ndarray


def _read_table(path: str, ncols: int) -> np.ndarray:
    validate.input_file("lastfm directory", path, "data", "data file")
    rows = []
    with open(path, encoding="utf-8", errors="replace") as f:
        header = f.readline()
        if not header:
            raise InputError("lastfm directory", f"{os.path.basename(path)} with a header row", path)
        for line in f:
            parts = line.strip().split("\t")
            if len(parts) < ncols:
                continue
            try:
                rows.append([int(float(p)) for p in parts[:ncols]])
            except ValueError:
                continue
    return np.asarray(rows, dtype=np.int64).reshape(-1, ncols)


def tfidf(artist_tag: np.ndarray):
    """TF-IDF rows of the tagged artists from (artist, tag) assignment pairs: (artist ids, sparse CSR matrix
    (N, tags)); sparse because the real data have ~12,500 tagged artists x ~12,000 tags with ~190,000 assignments."""
    from scipy import sparse

    a_ids, a_idx = np.unique(artist_tag[:, 0], return_inverse=True)
    t_ids, t_idx = np.unique(artist_tag[:, 1], return_inverse=True)
    counts = sparse.coo_matrix((np.ones(a_idx.size), (a_idx, t_idx)), shape=(a_ids.size, t_ids.size)).tocsr()
    counts.sum_duplicates()
    tf = sparse.diags(1.0 / np.asarray(counts.sum(axis=1)).ravel()) @ counts
    df = np.diff(counts.tocsc().indptr)  # artists carrying each tag
    idf = np.log(a_ids.size / df)
    return a_ids, (tf @ sparse.diags(idf)).tocsr()


DENSE_MAX = 4_000_000  # entries up to which the PCA works on the dense matrix


def pca(M, d: int) -> np.ndarray:
    """Scores of the centred rows of M on their first d principal axes, zero-padded when rank < d. Small M: dense
    SVD; large sparse M: the d leading singular triplets of M − 1 mean^T (centred implicitly, so M stays sparse) by
    scipy.sparse.linalg.svds with a fixed start vector (reproducible)."""
    from scipy import sparse

    n, m = M.shape
    out = np.zeros((n, d))
    if n * m <= DENSE_MAX or min(n, m) <= d + 1:
        A = M.toarray() if sparse.issparse(M) else np.asarray(M, dtype=float)
        C = A - A.mean(axis=0)
        U, s, _ = np.linalg.svd(C, full_matrices=False)
        k = min(d, s.size)
        out[:, :k] = U[:, :k] * s[:k]
        return out
    from scipy.sparse.linalg import LinearOperator, svds

    M = sparse.csr_matrix(M, dtype=float)
    mu = np.asarray(M.mean(axis=0)).ravel()
    ones = np.ones(n)
    op = LinearOperator((n, m), dtype=float,
                        matvec=lambda v: M @ np.ravel(v) - ones * (mu @ np.ravel(v)),
                        rmatvec=lambda u: M.T @ np.ravel(u) - mu * (ones @ np.ravel(u)))
    U, s, _ = svds(op, k=d, v0=np.full(min(n, m), 1.0 / np.sqrt(min(n, m))))
    order = np.argsort(s)[::-1]
    out[:, :] = U[:, order] * s[order]
    return out


def check_lastfm(path: str) -> None:
    """Before any work (worksheet run --data lastfm=DIR): a directory with the files of ``FILES``, each a regular
    file of bounded size (InputError otherwise)."""
    if not os.path.isdir(path):
        raise InputError("lastfm directory", "an existing directory with " + ", ".join(FILES), path)
    missing = [f for f in FILES if not os.path.isfile(os.path.join(path, f))]
    if missing:
        raise InputError("lastfm directory", "a directory with " + ", ".join(FILES), f"{path}: missing {missing}")

    for f in FILES:
        validate.input_file("lastfm directory", os.path.join(path, f), "data", "data file")


def load_lastfm(path: str, d: int = D) -> LastFMData:
    """Read the HetRec 2011 Last.fm directory (``user_artists.dat``, ``user_taggedartists.dat``; docs/real_data.md)."""
    if not os.path.isdir(path):
        raise InputError("lastfm directory", "an existing directory with " + ", ".join(FILES), path)
    missing = [f for f in FILES if not os.path.isfile(os.path.join(path, f))]
    if missing:
        raise InputError("lastfm directory", "a directory with " + ", ".join(FILES), f"{path}: missing {missing}")
    ua = _read_table(os.path.join(path, "user_artists.dat"), 2)  # userID, artistID (weight ignored)
    ut = _read_table(os.path.join(path, "user_taggedartists.dat"), 3)  # userID, artistID, tagID
    if ua.shape[0] == 0 or ut.shape[0] == 0:
        raise InputError("lastfm directory", "non-empty user_artists.dat and user_taggedartists.dat", path)
    artist_ids, M = tfidf(ut[:, 1:3])
    X = pca(M, d)
    nrm = np.linalg.norm(X, axis=1).max()
    X = X / nrm if nrm > 0 else X
    pos = np.searchsorted(artist_ids, ua[:, 1])
    ok = (pos < artist_ids.size) & (artist_ids[np.minimum(pos, artist_ids.size - 1)] == ua[:, 1])
    pairs = np.unique(np.stack([ua[ok, 0], pos[ok]], axis=1), axis=0)  # (user, artist index), listened and tagged
    users, starts = np.unique(pairs[:, 0], return_index=True)
    ptr = np.append(starts, pairs.shape[0])
    counts = np.diff(ptr)
    keep = counts < artist_ids.size - (POOL - 1) + 1  # users with at least POOL - 1 unlistened tagged artists
    if not np.any(keep):
        raise InputError("lastfm directory", f"a user with a listened tagged artist and >= {POOL - 1} others", path)
    sel = np.concatenate([np.arange(ptr[i], ptr[i + 1]) for i in np.flatnonzero(keep)])
    users = users[keep]
    ptr = np.append(0, np.cumsum(counts[keep]))
    return LastFMData(features=X, artist_ids=artist_ids, user_ids=users, ptr=ptr, listened=pairs[sel, 1])


class _PayoffTheta(np.ndarray):
    """θ of the LastFM environment: a zero vector (no ground truth) whose ``X @ θ`` is the data's payoff of each
    candidate in the last drawn pools. The contextual engine computes the true means as ``contexts @ env.theta``
    right after drawing the contexts; Python gives a subclass's ``__rmatmul__`` precedence, so the payoffs enter
    there. Any other array gets the ordinary product."""

    def __rmatmul__(self, X):
        env = getattr(self, "_env", None)
        if env is not None and env._last is not None and X is env._last[0]:
            return env._last[1]
        return np.asarray(X) @ np.asarray(self)


class LastFMEnv(ContextualLinearEnv):
    """Seed 004's LastFM bandit: K = 25 artists per round, payoff 1 for the one the user listened to."""

    def __init__(self, data: LastFMData, K: int = POOL, name: str = "lastfm"):
        d = data.features.shape[1]
        super().__init__(np.zeros(d), K, contexts="pool", pool=data.features, noise="gaussian", sigma=1.0, name=name)
        self.data = data
        th = np.zeros(d).view(_PayoffTheta)
        th._env = self
        self.theta = th
        self._last = None
        self._pos_codes = np.sort(np.repeat(np.arange(data.user_ids.size), np.diff(data.ptr)) * np.int64(
            data.features.shape[0]) + data.listened)

    def contexts(self, rng: np.random.Generator, size: tuple) -> np.ndarray:
        """Decision sets of shape ``size + (K, d)``. A leading axis (the engine's rounds, ``(rounds, runs)``) is drawn
        one round at a time, so a block of rounds draws exactly what as many single-round calls draw (the vectorised
        ``simulate`` and the step-by-step ``reference`` of the LinUCB family see the same pools: seed 004 Fig. 2(c)'s
        replay is checked that way)."""
        size = tuple(size)
        if len(size) > 1:
            parts = [self._draw(rng, size[1:]) for _ in range(size[0])]
            X = np.stack([p[0] for p in parts])
            self._last = (X, np.stack([p[1] for p in parts]))
            return X
        X, pay = self._draw(rng, size)
        self._last = (X, pay)
        return X

    def _draw(self, rng: np.random.Generator, size: tuple):
        n = int(np.prod(size)) if size else 1
        N, K = self.data.features.shape[0], self.K
        u = rng.integers(0, self.data.user_ids.size, n)
        cnt = np.diff(self.data.ptr)[u]
        pos = self.data.listened[self.data.ptr[u] + (rng.random(n) * cnt).astype(np.int64)]
        neg = self._negatives(rng, u)
        slot = rng.integers(0, K, n)
        idx = np.empty((n, K), dtype=np.int64)
        cols = np.arange(K)
        for_neg = cols[None, :] != slot[:, None]
        idx[for_neg] = neg.ravel()
        idx[np.arange(n), slot] = pos
        pay = np.zeros((n, K))
        pay[np.arange(n), slot] = 1.0
        return self.data.features[idx].reshape(size + (K, self.d)), pay.reshape(size + (K,))

    def _negatives(self, rng: np.random.Generator, u: np.ndarray) -> np.ndarray:
        """K − 1 distinct artists per row that user u[i] did not listen to, uniform over such subsets. Small
        problems: random keys, the listened artists' keys set to +inf, the K − 1 smallest (an exact uniform subset);
        large ones (the real data: N ≈ 17,600 artists, ~50 listened per user): rejection of rows with a listened
        artist or a repeat (exact; a row is accepted with probability ≈ 0.9)."""
        n, N, K = u.size, self.data.features.shape[0], self.K
        if n * N <= KEYS_MAX:
            keys = rng.random((n, N))
            cnt = np.diff(self.data.ptr)[u]
            rows = np.repeat(np.arange(n), cnt)
            starts = np.repeat(self.data.ptr[u], cnt)
            within = np.arange(rows.size) - np.repeat(np.cumsum(cnt) - cnt, cnt)
            keys[rows, self.data.listened[starts + within]] = np.inf
            return np.argpartition(keys, K - 2, axis=1)[:, : K - 1]
        neg = rng.integers(0, N, (n, K - 1))
        bad = np.arange(n)
        while bad.size:  # rejection: a negative the user listened to, or a repeat, redraws the row (exact law)
            codes = u[bad, None] * np.int64(N) + neg[bad]
            listened = np.isin(codes, self._pos_codes)
            srt = np.sort(neg[bad], axis=1)
            rep = (srt[:, 1:] == srt[:, :-1]).any(axis=1)
            bad = bad[listened.any(axis=1) | rep]
            if bad.size:
                neg[bad] = rng.integers(0, N, (bad.size, K - 1))
        return neg

    def rewards(self, means, rng: np.random.Generator) -> np.ndarray:
        """The payoff itself (0 or 1, no noise): ``means`` are the data's payoffs of the chosen artists."""
        return np.asarray(means, dtype=float).copy()

    @property
    def privacy_guaranteed(self) -> bool:
        return False

    def describe(self):
        d = super().describe()
        d.update(users=int(self.data.user_ids.size), artists=int(self.data.features.shape[0]))
        return d


def reward_ratio(regret, t, K: int = POOL):
    """Seed 004 Fig. 1(b)'s y-axis: cumulative reward over the random policy's expected reward t/K, with the
    cumulative reward t − R_t (one artist of the pool pays 1)."""
    t = np.asarray(t, dtype=float)
    return (t - np.asarray(regret, dtype=float)) / (t / K)


def make_env(path: str) -> LastFMEnv:
    return LastFMEnv(load_lastfm(path), name=f"lastfm[{os.path.basename(os.path.normpath(path))}]")
