"""Snapshot every registered bound over a grid, as test data for the one-definition refactor (issue 15).

Run this ONLY BEFORE a refactor of boundcalc/bounds (with the code whose values are to be kept checked out):

    PYTHONPATH=. python tests/data/make_bound_snapshot.py            # refuses to overwrite an existing snapshot
    PYTHONPATH=. python tests/data/make_bound_snapshot.py --add ID   # pin a NEW bound, existing entries untouched
    PYTHONPATH=. python tests/data/make_bound_snapshot.py --force    # deliberately re-pin everything

It writes tests/data/bound_snapshot.json.gz. tests/bounds/test_bound_snapshot.py recomputes every entry from the inputs
recorded in the file (instance overrides, user budget, horizons) and requires each number to be equal to 1e-12
relative (non-finite values and "no value" exactly). Regenerating after a refactor would pin the refactored values
and defeat the purpose, hence the --force guard. The file records the git commit (and whether the work tree was
dirty) it was generated from.

Grid: every bound of boundcalc.bounds.registry; horizons T = 1e2 … 1e15 (powers of ten) plus a few non-powers;
every user budget of USER_BUDGETS (all five notions; each reaches a bound only through Context.budget_for, the
direction-aware conversion of boundcalc.privacy.conversions, so conversions are pinned too; a budget with no
valid conversion is recorded with the reason, not dropped); several instances per setting (INSTANCES: the
setting's default and others). For every case the entry holds: the context's applicability (conditions), the
converted budget, the numeric parts value / nonprivate / privacy_cost, and the symbolic parts (bound.expression()
lambdified with bound.symbol_values()) evaluated at the same T, so the sympy form is pinned as well. A value that
is NaN or infinite is recorded as such; an evaluation that raises is recorded with the exception's type.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SNAPSHOT = HERE / "bound_snapshot.json.gz"
FORMAT = 1

# Horizons: powers of ten 1e2 … 1e15 and a few non-powers (between grid points, odd mantissas).
T_GRID = [10.0 ** k for k in range(2, 16)] + [150.0, 2500.0, 31622.0, 7.0e6, 123456789.0, 3.3e12]

# User budgets in every notion (as boundcalc.privacy budgets' as_dict()).
USER_BUDGETS = [
    {"notion": "zcdp", "rho": 1e-3},
    {"notion": "zcdp", "rho": 0.1},
    {"notion": "zcdp", "rho": 10.0},
    {"notion": "pure", "epsilon": 0.01},
    {"notion": "pure", "epsilon": 1.0},
    {"notion": "pure", "epsilon": 5.0},
    {"notion": "rdp", "alpha": 2.0, "epsilon": 0.1},
    {"notion": "rdp", "alpha": 8.0, "epsilon": 1.0},
    {"notion": "rdp", "alpha": 32.0, "epsilon": 5.0},
    {"notion": "approx", "epsilon": 1.0, "delta": 1e-6},
    {"notion": "approx", "epsilon": 0.1, "delta": 1e-3},
    {"notion": "ldp", "epsilon": 1.0, "delta": 0.01},
    {"notion": "ldp", "epsilon": 2.0, "delta": 0.0},
    {"notion": "ldp", "epsilon": 0.5, "delta": 1e-5},
]

# Instances per setting: registry.make_context(setting, overrides). The first is the setting's default.
INSTANCES = {
    "finite": {
        "default": {},
        "K2-gap0.05-params": {"means": [0.55, 0.5], "alpha_batch": 3.0, "alpha_adap": 4.0, "dpse_beta": 0.01,
                              "beta_adac": 4.0, "beta_adar": 3.5},
        "K2-gap0.3": {"means": [0.9, 0.6]},
        "K10-mu2-pattern": {"K": 10},
        "K4-two-best": {"means": [0.7, 0.7, 0.4, 0.1]},
    },
    "linear": {
        "default": {},
        "K50-d5": {"K": 50, "d": 5, "delta": 0.01, "action_seed": 7},
        "K1000-d20": {"K": 1000, "d": 20, "delta": 0.1, "action_seed": 11},
    },
    "contextual": {
        "default": {},
        "d5-K20-lam1": {"d": 5, "K": 20, "lam": 1.0, "C": 2.0, "delta": 0.01, "zeta": 0.1, "context_seed": 5},
        "d10-K50-lam0-given": {"d": 10, "K": 50, "lam": 2.0, "lam0": 0.05, "theta_norm": 0.5, "L": 2.0, "S": 0.5,
                               "context_seed": 11},
        "unprojected": {"context_distribution": "gaussian-003"},
    },
    "glm": {
        "default": {},
        "d5-K20": {"d": 5, "K": 20, "sigma_r": 0.5, "kappa_l": 0.05, "p_star": 0.3, "delta": 0.01, "gamma": 2.0,
                   "beta": 0.5},
        "d10-K100-gaussian": {"d": 10, "K": 100, "context": "gaussian", "c_r": 2.0, "zeta": 0.25, "L": 2.0,
                              "p_prime": 0.8, "h_sub": 0.2, "beta": 0.0, "kappa_u": 2.0},
    },
}


# -- encoding of floats (JSON has no NaN / inf) -----------------------------------------------------------
def enc(x):
    """A float as JSON: finite -> number (repr round-trips exactly), else the string 'nan' / 'inf' / '-inf'."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def dec(x):
    return float(x)  # float("nan"), float("inf"), float("-inf") read the strings back


def enc_array(a):
    return [enc(x) for x in np.asarray(a, dtype=float).ravel()]


def dec_array(a):
    return np.array([dec(x) for x in a], dtype=float)


def make_budget(d: dict | None):
    from boundcalc.privacy.budgets import NOTIONS

    if d is None:
        return None
    d = dict(d)
    cls = NOTIONS[d.pop("notion")]
    return cls(**d)


def budget_dict(b) -> dict | None:
    if b is None:
        return None
    return {k: enc(v) if isinstance(v, float) else v for k, v in b.as_dict().items()}


# -- the symbolic form ---------------------------------------------------------------------------------------
_LAMBDIFIED: dict = {}


def _symbolic_functions(bound):
    """(names, [f_nonprivate, f_privacy]) with f(T, *values): the bound's sympy expression, lambdified once."""
    if bound.id in _LAMBDIFIED:
        return _LAMBDIFIED[bound.id]
    import sympy

    parts = [sympy.sympify(e) for e in bound.expression()]
    T = sympy.Symbol("T", positive=True)
    names = sorted({s.name for e in parts for s in e.free_symbols if s.name != "T"})
    out = []
    for e in parts:
        # lambdify over neutral dummy arguments: a symbol named like a function (gamma, beta, …) must not shadow it
        args = [sympy.Dummy(f"a{i}") for i in range(len(names) + 1)]
        rename = {s: args[0] if s.name == "T" else args[1 + names.index(s.name)] for s in e.free_symbols}
        out.append(sympy.lambdify(args, e.xreplace(rename), modules=["numpy"]))
    res = (names, out, [str(p) for p in parts])
    _LAMBDIFIED[bound.id] = res
    return res


def _symbolic_values(bound, ctx, own, T):
    names, fs, texts = _symbolic_functions(bound)
    values = bound.symbol_values(ctx, own)
    missing = [n for n in names if n not in values]
    if missing:
        return {"sym_error": f"no value for symbols {missing}"}, texts
    args = [values[n] for n in names]
    res = {}
    with np.errstate(all="ignore"):
        for key, f in zip(("sym_nonprivate", "sym_privacy_cost"), fs):
            try:
                got = np.broadcast_to(np.asarray(f(T, *args), dtype=float), T.shape)
                res[key] = enc_array(got)
            except Exception as exc:  # recorded, not dropped
                res[key] = {"error": type(exc).__name__}
    return res, texts


# -- one case -------------------------------------------------------------------------------------------------
def compute_case(bound, ctx, T: np.ndarray) -> dict:
    """Everything pinned for one (bound, context with user budget) at the horizons T (JSON-ready)."""
    out: dict = {"applicable": not bound.conditions(ctx)}
    if bound.notion == "none":
        own, why = None, "non-private"
    else:
        own, why = ctx.budget_for(bound)
    out["own_budget"] = budget_dict(own)
    if bound.notion != "none" and own is None:
        out["no_conversion"] = why
        return out
    with np.errstate(all="ignore"):
        try:
            v = bound.evaluate(T, ctx, own)
        except Exception as exc:  # a bound not defined here: recorded as such
            out["error"] = type(exc).__name__
            return out
    out["value"] = enc_array(v.value)
    out["nonprivate"] = enc_array(v.nonprivate)
    out["privacy_cost"] = enc_array(v.privacy_cost)
    try:
        sym, _ = _symbolic_values(bound, ctx, own, T)
    except Exception as exc:
        sym = {"sym_error": type(exc).__name__}
    out.update(sym)
    return out


def _scalar_params(ctx) -> dict:
    """The context's scalar parameters (for diagnosis: which derived quantity moved)."""
    out = {}
    for k, val in sorted(ctx.params.items()):
        if isinstance(val, bool) or val is None or isinstance(val, str):
            out[k] = val
        elif isinstance(val, (int, float, np.integer, np.floating)):
            out[k] = enc(val) if isinstance(val, (float, np.floating)) else int(val)
    return out


_CONTEXTS: dict = {}


def base_context(instance_key: str, overrides: dict):
    """registry.make_context for an instance ``setting/name`` (cached: derive may draw actions or estimate λ0)."""
    from boundcalc.bounds import registry

    key = (instance_key, json.dumps(overrides, sort_keys=True))
    if key not in _CONTEXTS:
        _CONTEXTS[key] = registry.make_context(instance_key.split("/")[0], overrides)
    return _CONTEXTS[key]


def cases_for(bound, T: np.ndarray, instances: dict, user_budgets: list) -> list[dict]:
    """Every case of one bound: each instance of its setting (``instances``: key -> {"overrides": …}) × each user
    budget (only ``None`` for a non-private bound), in a fixed order."""
    from boundcalc.bounds.base import Context

    out = []
    for ikey, inst in instances.items():
        if ikey.split("/")[0] != bound.setting:
            continue
        ctx0 = base_context(ikey, inst["overrides"])
        for ub in ([None] if bound.notion == "none" else user_budgets):
            ctx = Context(params=ctx0.params, budget=make_budget(ub), instance_name=ctx0.instance_name)
            entry = {"bound": bound.id, "instance": ikey, "budget": ub}
            entry.update(compute_case(bound, ctx, T))
            out.append(entry)
    return out


def _expression_texts(bound):
    try:
        return _symbolic_functions(bound)[2]
    except Exception as exc:
        return {"error": type(exc).__name__}


def build() -> dict:
    from boundcalc.bounds import registry

    T = np.array(T_GRID, dtype=float)
    bounds = registry.all_bounds()
    instances = {}
    for setting, insts in INSTANCES.items():
        for iname, overrides in insts.items():
            key = f"{setting}/{iname}"
            ctx0 = base_context(key, overrides)
            instances[key] = {"overrides": overrides, "instance_name": ctx0.instance_name,
                              "params": _scalar_params(ctx0)}
    cases = []
    for b in bounds:
        cases.extend(cases_for(b, T, instances, USER_BUDGETS))
    return {
        "format": FORMAT,
        "generated_from": _git_state(),
        "generator": "tests/data/make_bound_snapshot.py",
        "tolerance_rel": 1e-12,
        "T": enc_array(T),
        "user_budgets": USER_BUDGETS,
        "bound_ids": [b.id for b in bounds],
        "instances": instances,
        "expressions": {b.id: _expression_texts(b) for b in bounds},
        "additions": [],
        "cases": cases,
    }


def add_bounds(snap: dict, ids: list[str]) -> dict:
    """Append the cases of NEW bounds (not yet in the snapshot) on the snapshot's own grid.

    Existing entries stay untouched; each addition records the commit it was computed at."""
    from boundcalc.bounds import registry

    T = dec_array(snap["T"])
    for bid in ids:
        if bid in snap["bound_ids"]:
            raise SystemExit(f"{bid} is already in the snapshot: its values are pinned; --add is for new bounds only")
        b = registry.get(bid)
        snap["cases"].extend(cases_for(b, T, snap["instances"], snap["user_budgets"]))
        snap["bound_ids"].append(bid)
        snap["expressions"][bid] = _expression_texts(b)
        snap["additions"].append({"bound": bid, "generated_from": _git_state()})
    return snap


def load(path: Path = SNAPSHOT) -> dict:
    with gzip.open(path, "rb") as fh:
        return json.loads(fh.read().decode())


def save(snap: dict, path: Path) -> None:
    data = json.dumps(snap, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
    tmp = path.with_suffix(".tmp")
    with gzip.GzipFile(tmp, "wb", mtime=0) as fh:
        fh.write(data)
    tmp.replace(path)


def _git_state() -> dict:
    root = HERE.parent.parent

    def git(*args):
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True).stdout.strip()

    status = git("status", "--porcelain", "--", "boundcalc")
    return {"commit": git("rev-parse", "HEAD"), "boundcalc_dirty": bool(status)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--force", action="store_true", help="overwrite an existing snapshot (re-pins every value)")
    ap.add_argument("--add", nargs="+", metavar="BOUND_ID",
                    help="append the cases of new bounds to the existing snapshot (existing entries untouched)")
    ap.add_argument("--out", type=Path, default=SNAPSHOT)
    args = ap.parse_args(argv)
    if args.add:
        snap = add_bounds(load(args.out), args.add)
    elif args.out.exists() and not args.force:
        print(f"{args.out} exists: a snapshot is taken BEFORE a refactor and never regenerated after it. "
              "Pass --add BOUND_ID to pin a new bound, or --force to re-pin everything deliberately.", file=sys.stderr)
        return 2
    else:
        snap = build()
    save(snap, args.out)
    print(f"wrote {args.out}: {len(snap['cases'])} cases, {len(snap['bound_ids'])} bounds, "
          f"{args.out.stat().st_size / 1e6:.2f} MB, from {snap['generated_from']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
