"""Issue 16 item 9: the real-data experiments (seed 002 App. F Figure F.1 auto loans; seed 004 Sec. 4 Figure 1(b) LastFM)
on small synthetic files of the published formats (written here, in tmp_path), and the synthetic logistic experiment.

Independent computations: the imputed price by a plain loop over the payments; the logistic fit by scipy's BFGS on the
same objective; TF-IDF and the pools by hand from the files' lines; the regret on LastFM by replaying the engine's
chosen arms is not possible, so it is checked through its meaning (each round costs 0 or 1; the reward ratio formula).
Mutants: a price imputed from τ = 0, a pool sampler that does not exclude listened artists, a loader that keeps the
weights column as the artist.
"""

from __future__ import annotations

import csv
import json
import math
import os

import numpy as np
import pytest

from clirun import app, runner
from boundcalc.data import autoloan, lastfm
from boundcalc.errors import InputError


# ---------------------------------------------------------------------------------------------- synthetic files
def write_autoloan(path, n=120, seed=0, theta_scale=1.0):
    """A CPRM-12-001-format CSV (the columns the authors' script reads, plus an unused one)."""
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(n):
        fico = int(rng.integers(600, 850))
        term = int(rng.choice([36, 48, 60, 72]))
        amount = float(rng.uniform(5000, 40000))
        rate = float(rng.uniform(0.1, 0.5))
        comp = float(rng.uniform(3, 7))
        car = str(rng.choice(["N", "U", "R"]))
        mp = amount / term * float(rng.uniform(1.0, 1.2))
        v = theta_scale * ((fico - 700) / 100 - (mp * term - amount) / 10000)
        apply = int(rng.random() < 1 / (1 + math.exp(-v)))
        rows.append({"Tier": 1, "apply": apply, "Primary_FICO": fico, "Term": term, "Amount_Approved": f"{amount:.2f}",
                     "onemonth": f"{rate:.4f}", "Competition_rate": f"{comp:.3f}", "CarType": car, "mp": f"{mp:.2f}"})
    rows.append({**rows[0], "Primary_FICO": ""})  # an incomplete row: dropped
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    return rows[:-1]


def write_lastfm(d, n_users=25, n_artists=70, n_tags=30, listens=8, tag_rows=500, seed=0):
    """HetRec 2011 Last.fm-format files: user_artists.dat (userID, artistID, weight) and user_taggedartists.dat
    (userID, artistID, tagID, day, month, year), tab-separated with a header row."""
    rng = np.random.default_rng(seed)
    os.makedirs(d, exist_ok=True)
    listened = {}
    with open(os.path.join(d, "user_artists.dat"), "w") as f:
        f.write("userID\tartistID\tweight\n")
        for u in range(n_users):
            arts = rng.choice(n_artists, listens, replace=False) + 1
            listened[u + 2] = set(int(a) for a in arts)
            for a in arts:
                f.write(f"{u + 2}\t{a}\t{int(rng.integers(1, 5000))}\n")
    tags = []
    with open(os.path.join(d, "user_taggedartists.dat"), "w") as f:
        f.write("userID\tartistID\ttagID\tday\tmonth\tyear\n")
        for _ in range(tag_rows):
            a, g = int(rng.integers(1, n_artists + 1)), int(rng.integers(1, n_tags + 1))
            tags.append((a, g))
            f.write(f"{int(rng.integers(2, n_users + 2))}\t{a}\t{g}\t1\t5\t2009\n")
    return listened, tags


@pytest.fixture(scope="module")
def loan_file(tmp_path_factory):
    p = tmp_path_factory.mktemp("loan") / "CPRM_AutoLOan_OnlineAutoLoanData.csv"
    rows = write_autoloan(p)
    return str(p), rows


@pytest.fixture(scope="module")
def lfm_dir(tmp_path_factory):
    d = str(tmp_path_factory.mktemp("lastfm") / "hetrec2011-lastfm-2k")
    listened, tags = write_lastfm(d)
    return d, listened, tags


# ---------------------------------------------------------------------------------------------- auto loans
def price_by_loop(mp, term, amount, rate_pct):
    """seed 002 App. F: p = MonthlyPayment · Σ_{τ=1}^{Term} (1 + Rate)^{−τ} − Amount, summed term by term."""
    return mp * sum((1 + rate_pct / 100) ** (-tau) for tau in range(1, int(term) + 1)) - amount


def test_price_imputation_against_the_sum(loan_file):
    path, rows = loan_file
    data = autoloan.load_autoloan(path)
    assert data.x.shape[0] == len(rows)  # the incomplete row was dropped
    want = [price_by_loop(float(r["mp"]), r["Term"], float(r["Amount_Approved"]), float(r["onemonth"])) for r in rows]
    np.testing.assert_allclose(data.price, want, rtol=1e-10)
    assert autoloan.impute_price(100.0, 12, 1000.0, 0.0) == pytest.approx(200.0)  # Rate = 0: Term payments

    # mutant: the sum from τ = 0 (one payment too many, undiscounted) is caught by the same check
    def mutant(payment, term, amount, rate_pct):
        return autoloan.impute_price(payment, term, amount, rate_pct) + np.asarray(payment, dtype=float)

    got = mutant(np.array([float(r["mp"]) for r in rows]), np.array([r["Term"] for r in rows], float),
                 np.array([float(r["Amount_Approved"]) for r in rows]), np.array([float(r["onemonth"]) for r in rows]))
    assert not np.allclose(got, want, rtol=1e-10)


def test_features_one_hot_and_constant(loan_file):
    path, rows = loan_file
    data = autoloan.load_autoloan(path)
    cars = sorted({r["CarType"] for r in rows})
    assert data.names == [*autoloan.NUMERIC, *(f"CarType={c}" for c in cars), "constant"]
    np.testing.assert_array_equal(data.x[:, -1], 1.0)
    onehot = data.x[:, len(autoloan.NUMERIC):-1]
    np.testing.assert_array_equal(onehot.sum(axis=1), 1.0)
    for i, r in enumerate(rows):
        assert onehot[i, cars.index(r["CarType"])] == 1.0
        assert data.x[i, 0] == float(r["Primary_FICO"]) and data.apply[i] == float(r["apply"])


def test_logistic_fit_against_scipy(loan_file):
    from scipy.optimize import minimize

    path, _ = loan_file
    env = autoloan.make_env(path)
    Z = env.scaler(np.hstack([env.data.x, env.data.price[:, None] * env.data.x]))
    y = env.data.apply

    def obj(th):
        z = Z @ th
        return 0.5 * th @ th + np.sum(np.logaddexp(0.0, z) - y * z)

    ref = minimize(obj, np.zeros(Z.shape[1]), method="BFGS", options={"gtol": 1e-9, "maxiter": 10_000}).x
    np.testing.assert_allclose(env.theta, ref, atol=1e-4)
    assert obj(env.theta) <= obj(ref) + 1e-9


def test_env_contexts_are_the_scaled_price_features(loan_file):
    path, _ = loan_file
    env = autoloan.make_env(path)
    assert env.K == 25 and env.link == "logistic" and env.d == 2 * env.data.x.shape[1]
    np.testing.assert_allclose(env.prices, np.linspace(0, 25000, 25))
    rng = np.random.default_rng(1)
    X = env.contexts(rng, (3, 4))
    assert X.shape == (3, 4, 25, env.d)
    # every decision set is one customer's row at the 25 prices, min-max scaled as in the fit
    idx = np.random.default_rng(1).integers(0, env.data.x.shape[0], (3, 4))
    lo, span = env.scaler.lo, env.scaler.span
    for (i, j), row in np.ndenumerate(idx):
        x = env.data.x[row]
        for k, p in enumerate(env.prices):
            np.testing.assert_allclose(X[i, j, k], (np.concatenate([x, p * x]) - lo) / span)
    # C_B is the largest context norm over the file and the grid (checked by brute force)
    allX = np.stack([env.scaler(np.hstack([env.data.x, p * env.data.x])) for p in env.prices])
    assert env.C_B == pytest.approx(np.linalg.norm(allX, axis=-1).max())
    zmax = np.abs(allX @ env.theta).max()
    assert env.zeta == pytest.approx(math.exp(-zmax) / (1 + math.exp(-zmax)) ** 2)


@pytest.mark.parametrize("content,word", [("a,b\n1,2\n", "missing"), ("", "missing")])
def test_bad_autoloan_file(tmp_path, content, word):
    p = tmp_path / "bad.csv"
    p.write_text(content)
    with pytest.raises(InputError, match=word):
        autoloan.load_autoloan(str(p))
    with pytest.raises(InputError):
        autoloan.load_autoloan(str(tmp_path / "nope.csv"))


# ---------------------------------------------------------------------------------------------- LastFM
def test_tfidf_by_hand():
    pairs = np.array([[10, 1], [10, 1], [10, 2], [20, 2], [30, 3]])
    ids, M = lastfm.tfidf(pairs)
    assert ids.tolist() == [10, 20, 30]
    M = M.toarray()
    # artist 10: tf(tag1) = 2/3, tf(tag2) = 1/3; idf(tag1) = ln(3/1), idf(tag2) = ln(3/2), idf(tag3) = ln 3
    want = np.array([[2 / 3 * math.log(3), 1 / 3 * math.log(1.5), 0.0],
                     [0.0, math.log(1.5), 0.0],
                     [0.0, 0.0, math.log(3)]])
    np.testing.assert_allclose(M, want)


@pytest.mark.parametrize("dense_max", [lastfm.DENSE_MAX, 0])
def test_pca_scores_are_the_principal_projections(dense_max, monkeypatch):
    """Both paths (dense SVD; sparse implicit centring with svds, forced by DENSE_MAX = 0) against eigh of C^T C."""
    from scipy import sparse

    monkeypatch.setattr(lastfm, "DENSE_MAX", dense_max)
    rng = np.random.default_rng(0)
    M = sparse.random(60, 12, density=0.3, random_state=1, format="csr")
    S = lastfm.pca(M, 3)
    C = M.toarray() - M.toarray().mean(axis=0)
    w, V = np.linalg.eigh(C.T @ C)
    ref = C @ V[:, ::-1][:, :3]
    np.testing.assert_allclose(np.abs(S), np.abs(ref), atol=1e-8)  # the same axes up to sign
    # mutant: without centring the leading axis differs
    U, s_, _ = np.linalg.svd(M.toarray(), full_matrices=False)
    assert not np.allclose(np.abs(U[:, :1] * s_[:1]), np.abs(ref[:, :1]), atol=1e-3)
    D = rng.standard_normal((2, 3))
    assert lastfm.pca(D, 3)[:, 2:].tolist() == [[0.0], [0.0]]  # rank < d: zero-padded


def test_loader_reads_the_files(lfm_dir):
    d, listened, tags = lfm_dir
    data = lastfm.load_lastfm(d)
    assert data.features.shape == (len({a for a, _ in tags}), 25)
    assert np.linalg.norm(data.features, axis=1).max() == pytest.approx(1.0)
    tagged = set(data.artist_ids.tolist())
    for k, u in enumerate(data.user_ids):
        got = {int(data.artist_ids[i]) for i in data.listened[data.ptr[k]:data.ptr[k + 1]]}
        assert got == listened[int(u)] & tagged


def _check_pools(env, X, listened):
    """Each pool: K distinct artists, exactly one the user listened to, whose payoff is 1 (others 0)."""
    feats = env.data.features
    pay = X @ env.theta  # the payoffs of the drawn pools (the engine's "true means")
    n = int(np.prod(X.shape[:-2]))
    Xf, Pf = X.reshape(n, env.K, env.d), pay.reshape(n, env.K)
    ok = True
    for i in range(n):
        idx = [int(np.flatnonzero(np.all(feats == x, axis=1))[0]) for x in Xf[i]]
        ok &= len(set(idx)) == env.K and Pf[i].sum() == 1.0
        ok &= set(np.unique(Pf[i])) <= {0.0, 1.0}
        # some user listened to the payoff-1 artist and to none of the pool's payoff-0 artists
        arts = [int(env.data.artist_ids[j]) for j in idx]
        users = [u for u, s in listened.items() if arts[int(np.argmax(Pf[i]))] in s]
        ok &= any(all(arts[k] not in listened[u] for k in range(env.K) if Pf[i, k] == 0) for u in users)
    return bool(ok)


def test_pools_hold_one_listened_artist(lfm_dir):
    d, listened, _ = lfm_dir
    env = lastfm.make_env(d)
    assert env.K == 25
    X = env.contexts(np.random.default_rng(3), (4, 5))
    assert X.shape == (4, 5, 25, 25)
    assert _check_pools(env, X, listened)
    # any other product with theta is the ordinary one (theta = 0: no ground truth)
    assert np.all(X.copy() @ env.theta == 0.0)
    assert env.rewards(np.array([1.0, 0.0]), np.random.default_rng(0)).tolist() == [1.0, 0.0]


@pytest.mark.parametrize("keys_max", [lastfm.KEYS_MAX, 0])
def test_both_samplers_hold_one_listened_artist(lfm_dir, keys_max, monkeypatch):
    """The random-key path (small files) and the rejection path (the real data's size; forced by KEYS_MAX = 0)."""
    d, listened, _ = lfm_dir
    env = lastfm.make_env(d)
    monkeypatch.setattr(lastfm, "KEYS_MAX", keys_max)
    X = env.contexts(np.random.default_rng(5), (6,))
    assert _check_pools(env, X, listened)


def test_mutant_sampler_without_exclusion_is_caught(lfm_dir, monkeypatch):
    d, listened, _ = lfm_dir
    env = lastfm.make_env(d)
    N, K = env.data.features.shape[0], env.K
    # mutant: negatives drawn from every artist (the listened ones not excluded, repeats allowed)
    monkeypatch.setattr(env, "_negatives", lambda rng, u: rng.integers(0, N, (u.size, K - 1)))
    X = env.contexts(np.random.default_rng(3), (40,))
    assert not _check_pools(env, X, listened)


def test_mutant_loader_reading_the_weight_as_artist_is_caught(lfm_dir, monkeypatch):
    d, listened, _ = lfm_dir
    real = lastfm._read_table

    def mutant(path, ncols):
        t = real(path, 3 if path.endswith("user_artists.dat") else ncols)
        return t[:, [0, 2]] if path.endswith("user_artists.dat") else t

    monkeypatch.setattr(lastfm, "_read_table", mutant)
    try:
        data = lastfm.load_lastfm(d)
    except InputError:
        return  # refused: caught
    tagged = set(data.artist_ids.tolist())
    same = all({int(data.artist_ids[i]) for i in data.listened[data.ptr[k]:data.ptr[k + 1]]}
               == listened[int(u)] & tagged for k, u in enumerate(data.user_ids))
    assert not same


def test_engine_regret_counts_missed_rounds_and_ratio(lfm_dir):
    from boundcalc import montecarlo
    from boundcalc.algorithms.contextual import linucb

    d, _, _ = lfm_dir
    env = lastfm.make_env(d)
    res = montecarlo.run(linucb.LinUCB(lam=1.0, alpha=1.0), env, 60, 3, seed=2, checkpoints=np.arange(1, 61))
    per = np.asarray(res.regret)
    steps = np.diff(np.concatenate([np.zeros((per.shape[0], 1)), per], axis=1), axis=1)
    assert set(np.unique(steps)) <= {0.0, 1.0}  # each round: the listened artist chosen (0) or not (1)
    t = np.array([10.0, 50.0])
    np.testing.assert_allclose(lastfm.reward_ratio([5.0, 45.0], t, 25), [(10 - 5) / (10 / 25), (50 - 45) / (50 / 25)])


def test_bad_lastfm_dir(tmp_path):
    with pytest.raises(InputError):
        lastfm.load_lastfm(str(tmp_path / "nope"))
    (tmp_path / "user_artists.dat").write_text("userID\tartistID\tweight\n")
    with pytest.raises(InputError, match="missing"):
        lastfm.load_lastfm(str(tmp_path))


# ---------------------------------------------------------------------------------------------- worksheets
def _run(ws_name, exp_id, data, tmp_path, scale):
    from boundcalc.experiments import get
    from boundcalc.experiments.base import Runner

    ws = get(ws_name)
    e = ws.experiment(exp_id)
    r = Runner(ws, out=str(tmp_path / exp_id), data=data)
    old = e.scales["fast"]
    e.scales["fast"] = scale
    try:
        return r.run_experiment(exp_id), r
    finally:
        e.scales["fast"] = old


def test_autoloan_experiment_equals_direct_calls(loan_file, tmp_path):
    from boundcalc import montecarlo
    from boundcalc.experiments import ws002
    from boundcalc.figures import MIN_PLOT_CHECKPOINTS

    path, _ = loan_file
    res, r = _run("002", "autoloan", {"autoloan": path}, tmp_path, {"T": 60, "runs": 2})
    assert res.figures == ["figF-1-autoloan.png"] and (tmp_path / "autoloan" / "figF-1-autoloan.png").stat().st_size
    assert {s.algorithm for s in res.simulations} == {"LDP-SGD", "LDP-GLOC"} and len(res.simulations) == 4
    env = autoloan.make_env(path)
    for s in res.simulations:
        eps = float(s.label.split("eps=")[1].split("/")[0])
        direct = montecarlo.run(ws002.logistic_algorithm(s.algorithm, eps, env), env, s.T, s.runs, seed=s.seed,
                                checkpoints=montecarlo.log_checkpoints(s.T, n=MIN_PLOT_CHECKPOINTS, start=10))
        assert direct.mean()[-1] == pytest.approx(s.final_mean, rel=1e-12)
        if s.algorithm == "LDP-SGD":  # mutant: LDP-SGD with the unit-ball C_B = 1, not the file's C_B, differs
            from boundcalc.algorithms.glm import LDPSGD

            other = montecarlo.run(LDPSGD(eps, C_B=1.0, zeta=env.zeta), env, s.T, s.runs, seed=s.seed,
                                   checkpoints=montecarlo.log_checkpoints(s.T, n=MIN_PLOT_CHECKPOINTS, start=10))
            assert other.mean()[-1] != pytest.approx(s.final_mean, rel=1e-12)
    assert res.figure_claims and res.figure_claims[0].source.startswith("seed 002 App. F, Figure F.1")


def test_real_data_experiments_without_a_file_say_so(tmp_path):
    for ws_name, exp in (("002", "autoloan"), ("004", "lastfm")):
        res, _ = _run(ws_name, exp, None, tmp_path, {"T": 10, "runs": 1})
        assert not res.simulations and res.notes[0].startswith("Not run:") and "docs/real_data.md" in res.notes[0]


def test_lastfm_experiment_runs(lfm_dir, tmp_path):
    d, _, _ = lfm_dir
    res, _ = _run("004", "lastfm", {"lastfm": d}, tmp_path, {"T": 40, "runs": 2})
    assert res.figures == ["fig1b-lastfm.png"]
    assert [s.algorithm for s in res.simulations] == ["LinUCB", "LinUCB-DGS", "Private-LinUCB"]
    # the table's ratio at T is the reward ratio of the recorded final regret
    for s, cell in zip(res.simulations, res.tables[0].rows[0]):
        assert float(cell.split()[0]) == pytest.approx(lastfm.reward_ratio(s.final_mean, s.T, 25), rel=1e-3)


def test_logistic_experiment_exercises_the_logistic_path(tmp_path):
    from boundcalc.envs.glm import make_glm_env
    from boundcalc.experiments import ws002

    res, _ = _run("002", "logistic", None, tmp_path, {"T": 50, "runs": 2})
    assert len(res.simulations) == 4 and res.figures == ["logistic-synthetic.png"]
    env = make_glm_env("ldp-logistic")
    assert env.link == "logistic"
    alg = ws002.logistic_algorithm("LDP-SGD", 1.0, env)
    assert alg.zeta == pytest.approx(env.zeta) and alg.C_B == env.C_B


def test_cli_data_option(loan_file, tmp_path):
    bad = runner.invoke(app, ["worksheet", "run", "002", "--data", "nope=x", "--out", str(tmp_path)])
    assert bad.exit_code == 2 and "--data" in bad.output and "Traceback" not in bad.output
    missing = runner.invoke(app, ["worksheet", "run", "002", "--data", f"autoloan={tmp_path}/none.csv",
                                  "--out", str(tmp_path)])
    assert missing.exit_code == 2 and "existing path" in missing.output
    noeq = runner.invoke(app, ["worksheet", "run", "002", "--data", "autoloan", "--out", str(tmp_path)])
    assert noeq.exit_code == 2 and "NAME=PATH" in noeq.output


def test_script_parse_args_data():
    from boundcalc.experiments.session import parse_args

    assert parse_args(["--data", "autoloan=a.csv", "--data", "lastfm=d"])["data"] == {"autoloan": "a.csv",
                                                                                       "lastfm": "d"}
    assert json.dumps(parse_args([])["data"]) == "{}"
