"""On-Line Auto Lending data (CPRM-12-001, Columbia CPRM) as a logistic bandit: seed 002 App. F, Figure F.1.

Preprocessing as seed 002 App. F describes it (following Ban & Keskin 2020 and Cheung et al. 2018):

* features per customer: FICO score, term, amount approved, prime rate, car type (one-hot) and the competitor's
  rate, plus a constant (the authors' script adds one; the logistic fit has no separate intercept);
* the price the lender charged is imputed as the net present value of the payments minus the amount,
  p = MonthlyPayment · Σ_{τ=1}^{Term} (1 + Rate)^{−τ} − Amount (seed 002 App. F display), Rate = ``onemonth``/100;
* logit demand: P(apply = 1 | x, p) = σ(v), v = (x, p x)^T θ* (seed 002 App. F); θ* is fitted to the data by
  L2-penalised logistic regression (the paper used sklearn's default: penalty ‖θ‖²/2 + C Σ log-loss with C = 1; here
  Newton's method on the same objective), on min–max scaled columns of (x, p x);
* arms: 25 prices spread uniformly on [0, 25000] (seed 002 App. F); the context of arm k for customer x is the
  scaled (x, p_k x); each round a customer is drawn uniformly from the file; the reward is apply ~ Bernoulli(σ(v));
  the regret is the one of seed 002 Sec. 2 (apply probabilities under the fitted population model).
"""

from __future__ import annotations

import csv
import math
import os
from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from .. import validate
from ..envs.glm import GLMEnv
from ..errors import InputError

# column names as the authors' public script reads them (github.com/liangzp/LDP-Bandit, seed 002 footnote 1)
NUMERIC = ("Primary_FICO", "Term", "Amount_Approved", "onemonth", "Competition_rate")
CATEGORICAL = "CarType"
OUTCOME = "apply"
PAYMENT = "mp"
COLUMNS = (OUTCOME, *NUMERIC, CATEGORICAL, PAYMENT)
N_PRICES, PRICE_MAX = 25, 25000.0  # seed 002 App. F


@dataclass
class AutoLoanData:
    """The file's customers: raw feature rows x (n, m) with a constant column, imputed prices p (n,), outcomes y."""

    x: np.ndarray
    price: np.ndarray
    apply: np.ndarray
    names: list[str]


def impute_price(payment, term, amount, rate_pct):
    """p = MonthlyPayment · Σ_{τ=1}^{Term} (1 + Rate)^{−τ} − Amount (seed 002 App. F), Rate = rate_pct/100; the
    geometric sum in closed form q(1 − q^Term)/(1 − q), q = 1/(1 + Rate) (Term when Rate = 0)."""
    payment, term, amount = (np.asarray(v, dtype=float) for v in (payment, term, amount))
    rate = np.asarray(rate_pct, dtype=float) / 100.0
    q = 1.0 / (1.0 + rate)
    with np.errstate(divide="ignore", invalid="ignore"):
        annuity = np.where(rate == 0, term, q * (1.0 - q**term) / (1.0 - q))
    return payment * annuity - amount


def check_autoloan(path: str) -> None:
    """Before any work (worksheet run --data autoloan=FILE): a regular CSV file of bounded size whose header has the
    columns of ``COLUMNS`` (InputError otherwise; issue 22 §4: the figures of the other experiments were written
    before a bad file was read)."""
    if not os.path.isfile(path):
        raise InputError("autoloan file", "an existing CSV file (docs/real_data.md)", path)

    validate.input_file("autoloan file", path, "data", "CSV file")
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            header = next(csv.reader([f.readline(1 << 16)]), [])
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise InputError("autoloan file", "a readable UTF-8 CSV file", f"{path}: {exc}") from None
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise InputError("autoloan file", "a CSV with the columns " + ", ".join(COLUMNS),
                         f"{path}: missing {', '.join(missing)}")


def load_autoloan(path: str) -> AutoLoanData:
    """Read the CPRM-12-001 CSV (header row; the columns of ``COLUMNS``, others ignored; docs/real_data.md)."""
    if not os.path.isfile(path):
        raise InputError("autoloan file", "an existing CSV file (docs/real_data.md)", path)

    validate.input_file("autoloan file", path, "data", "CSV file")
    with open(path, newline="", encoding="utf-8-sig") as f:
        reader = csv.DictReader(f)
        missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise InputError("autoloan file", "a CSV with the columns " + ", ".join(COLUMNS),
                             f"{path}: missing {', '.join(missing)}")
        rows = [r for r in reader]
    num, cat, y, pay = [], [], [], []
    for i, r in enumerate(rows):
        try:
            vals = [float(r[c]) for c in NUMERIC]
            out = float(r[OUTCOME])
            mp = float(r[PAYMENT])
        except (TypeError, ValueError):
            continue  # rows with a missing or non-numeric value are dropped (documented)
        if not all(math.isfinite(v) for v in (*vals, out, mp)) or out not in (0.0, 1.0):
            continue
        num.append(vals)
        cat.append(str(r[CATEGORICAL]).strip() or "Unknown")
        y.append(out)
        pay.append(mp)
    if len(num) < 2:
        raise InputError("autoloan file", "at least 2 complete rows", f"{path}: {len(num)}")
    num = np.asarray(num)
    levels = sorted(set(cat))
    onehot = np.array([[1.0 if c == lv else 0.0 for lv in levels] for c in cat])
    x = np.hstack([num, onehot, np.ones((len(num), 1))])
    term, amount, rate = num[:, 1], num[:, 2], num[:, 3]
    price = impute_price(np.asarray(pay), term, amount, rate)
    names = [*NUMERIC, *(f"{CATEGORICAL}={lv}" for lv in levels), "constant"]
    return AutoLoanData(x=x, price=price, apply=np.asarray(y), names=names)


class MinMax:
    """Column-wise min–max scaling to [0, 1] (constant columns map to 0; sklearn's MinMaxScaler)."""

    def __init__(self, Z: np.ndarray):
        self.lo = Z.min(axis=0)
        span = Z.max(axis=0) - self.lo
        self.span = np.where(span > 0, span, 1.0)

    def __call__(self, Z):
        return (Z - self.lo) / self.span


def fit_logistic(Z: np.ndarray, y: np.ndarray, C: float = 1.0, iters: int = 100, tol: float = 1e-10) -> np.ndarray:
    """argmin_θ ‖θ‖²/2 + C Σ_i [log(1 + e^{z_i}) − y_i z_i], z = Zθ (sklearn's default L2 logistic regression, no
    intercept), by Newton's method (the objective is strictly convex)."""
    theta = np.zeros(Z.shape[1])
    for _ in range(iters):
        p = expit(Z @ theta)
        g = theta + C * Z.T @ (p - y)
        H = np.eye(Z.shape[1]) + C * (Z * (p * (1 - p))[:, None]).T @ Z
        step = np.linalg.solve(H, g)
        theta -= step
        if np.max(np.abs(step)) < tol:
            break
    return theta


class AutoLoanEnv(GLMEnv):
    """Logistic bandit of seed 002 App. F on a user's CPRM-12-001 file: 25 price arms, one customer per round."""

    def __init__(self, data: AutoLoanData, n_prices: int = N_PRICES, price_max: float = PRICE_MAX, C: float = 1.0,
                 name: str = "autoloan"):
        Z = np.hstack([data.x, data.price[:, None] * data.x])
        self.scaler = MinMax(Z)
        theta = fit_logistic(self.scaler(Z), data.apply, C=C)
        super().__init__(theta, n_prices, link="logistic", name=name)
        self.data = data
        self.prices = np.linspace(0.0, price_max, n_prices)
        m = data.x.shape[1]
        self.m = m
        # exact sup of the context norm and of |z| over the file's customers and the price grid (C_B, zeta)
        norms, zs = [], []
        for p in self.prices:
            X = self._arm(data.x, p)
            norms.append(np.linalg.norm(X, axis=1).max())
            zs.append(np.abs(X @ self.theta).max())
        self.C_B = float(max(norms))
        self._zmax = float(max(zs))

    def _arm(self, x, p):
        return self.scaler(np.concatenate([x, p * x], axis=-1))

    @property
    def zeta(self) -> float:
        """inf μ'(z) over the scores the file's customers and the price grid produce (seed 002 Assumption A1)."""
        e = math.exp(-min(self._zmax, 50.0))
        return e / (1 + e) ** 2

    @property
    def max_abs_reward(self) -> float:
        return 1.0

    def contexts(self, rng: np.random.Generator, size: tuple) -> np.ndarray:
        """One customer drawn uniformly per round; shape size + (K, d), arm k = the scaled (x, p_k x)."""
        idx = rng.integers(0, self.data.x.shape[0], tuple(size))
        x = self.data.x[idx][..., None, :]  # size + (1, m)
        p = self.prices[:, None]  # (K, 1)
        full = np.concatenate([np.broadcast_to(x, x.shape[:-2] + (self.K, self.m)), p * x], axis=-1)
        return self.scaler(full)

    def describe(self):
        d = super().describe()
        d.update(customers=int(self.data.x.shape[0]), features=self.data.names, C_B=self.C_B, zeta=self.zeta)
        return d


def make_env(path: str) -> AutoLoanEnv:
    """The Figure F.1 environment for the CPRM-12-001 file at ``path``."""
    return AutoLoanEnv(load_autoloan(path), name=f"autoloan[{os.path.basename(path)}]")
