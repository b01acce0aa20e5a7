"""Ready-made rigorous provers for the inequalities of issue 10 §3 between information quantities (seed 001).

Each ``*_claim()`` returns a ``claims.Claim`` (margin enclosure, 50-digit point margin, natural box,
statement); each ``prove_*`` proves it on a box (default: the natural box) and returns a ``ProofResult``.
Variables: x = the arm's mean (mu_a), y = the optimal mean (mu*), epsilon = the privacy level.

* ``prove_d_eps_le_kl``        d_eps(x, y) <= kl(x, y)                 (seed 001 Eq. 6 with z = x)
* ``prove_d_eps_le_eps_tv``    d_eps(x, y) <= c eps TV = c eps |x - y|  (c >= 1; Eq. 6 with z = y)
* ``prove_d_eps_closed_form``  closed form (Eq. 8 / Lemma F.1) = definition (Eq. 6), exactly
* ``prove_thm31_ge_eq7``       seed 001 Thm 3.1's LB_eps >= Eq. 7's constant, c in {1, 6}

Bound pairs (003 Thm 9 <= Thm 4 explicit, every registered lower <= upper) are in ``bound_pairs``.
"""

from __future__ import annotations

from functools import lru_cache

from ..intervals import enclosures as en
from .claims import Claim, d_eps_definition_mp
from ..intervals.interval import Interval, imin
from .prover import COUNTEREXAMPLE, PROVEN, UNDECIDED, ProofResult, prove

INFO_BOX = {"x": (0.0, 1.0), "y": (0.0, 1.0), "epsilon": (1e-3, 10.0)}


def _mp_kl(x, y):
    from ..info import kl_bernoulli_mp

    return kl_bernoulli_mp(x, y)


# ----------------------------------------------------------------------------------------------------
# d_eps <= kl and d_eps <= c eps TV
# ----------------------------------------------------------------------------------------------------
def d_eps_le_kl_claim(box=None) -> Claim:
    """d_eps(x, y) <= kl(x, y) on the box (seed 001 Eq. 6 / Eq. 8; sheet §2.3)."""
    return Claim(
        name="d_eps(x, y, epsilon) <= kl(x, y)",
        statement=("for every (x, y, epsilon) in the box: d_eps(x, y) <= kl(x, y). Margin enclosed through the "
                   "identity kl - d_eps = kl(x, z*) (z* the minimiser of seed 001 Eq. 6, Eq. 30) and kl >= 0"),
        margin=lambda b: en.margin_kl_minus_d_eps(b["x"], b["y"], b["epsilon"]),
        point_margin=lambda p: _mp_kl(p["x"], p["y"]) - d_eps_definition_mp(p["x"], p["y"], p["epsilon"]),
        box=dict(INFO_BOX, **(box or {})),
        source="seed 001 Eq. 6 (z = x is feasible), Eq. 8 / Lemma F.1",
    )


def d_eps_le_eps_tv_claim(c: float = 1.0, box=None) -> Claim:
    """d_eps(x, y) <= c eps TV(Ber(x), Ber(y)) = c eps |x - y| on the box (seed 001 Eq. 6 with z = y; c >= 1)."""
    import mpmath

    def point(p):
        return c * p["epsilon"] * mpmath.fabs(p["x"] - p["y"]) - d_eps_definition_mp(p["x"], p["y"], p["epsilon"])

    if c >= 1:
        def margin(b):
            return en.margin_eps_tv_minus_d_eps(b["x"], b["y"], b["epsilon"], c)
        how = "identity c eps|x-y| - d_eps = (c-1) eps|x-y| + (eps - lam*)|x-y| + psi(y~, lam*), lam* = min(eps, eps_0)"
    else:  # no identity: the plain difference of enclosures (a deliberately false claim for c < 1)
        def margin(b):
            return Interval(c) * b["epsilon"] * en.tv_range(b["x"], b["y"]) - en.d_eps_range(b["x"], b["y"], b["epsilon"])
        how = "difference of the enclosures of c eps |x - y| and d_eps"
    return Claim(
        name=f"d_eps(x, y, epsilon) <= {c:g}*epsilon*TV(x, y)",
        statement=f"for every (x, y, epsilon) in the box: d_eps(x, y) <= {c:g} eps |x - y|. Margin: {how}",
        margin=margin, point_margin=point, box=dict(INFO_BOX, **(box or {})),
        source="seed 001 Eq. 6 (z = y is feasible); sheet §2.4 (capped Chernoff dual)",
    )


def kl_le_d_eps_claim(box=None) -> Claim:
    """The deliberately false kl(x, y) <= d_eps(x, y) (for tests: it fails in the high-privacy regime)."""
    return Claim(
        name="kl(x, y) <= d_eps(x, y, epsilon) (false)",
        statement="for every (x, y, epsilon) in the box: kl(x, y) <= d_eps(x, y); margin -kl(x, z*)",
        margin=lambda b: -en.margin_kl_minus_d_eps(b["x"], b["y"], b["epsilon"]),
        point_margin=lambda p: d_eps_definition_mp(p["x"], p["y"], p["epsilon"]) - _mp_kl(p["x"], p["y"]),
        box=dict(INFO_BOX, **(box or {})),
    )


def prove_d_eps_le_kl(box=None, **limits) -> ProofResult:
    return d_eps_le_kl_claim().prove(box, **limits)


def prove_d_eps_le_eps_tv(box=None, c: float = 1.0, **limits) -> ProofResult:
    return d_eps_le_eps_tv_claim(c).prove(box, **limits)


# ----------------------------------------------------------------------------------------------------
# seed 001 Thm 3.1 >= Eq. 7 (per arm)
# ----------------------------------------------------------------------------------------------------
THM31_BOX = {"x": (0.0, 1.0), "y": (0.0, 1.0), "epsilon": (1e-3, 10.0)}


def thm31_ge_eq7_claim(c: float = 6.0, box=None) -> Claim:
    """Per-arm form of seed 001 Thm 3.1 >= Eq. 7: d_eps(mu_a, mu*) <= min{kl(mu_a, mu*), c eps Delta_a}.

    Thm 3.1: LB_eps = sum_a Delta_a / d_eps(mu_a, mu*); Eq. 7: sum_a Delta_a / min{kl, c eps Delta_a} (ERRATA 15:
    c in {1, 6}). All terms are positive, so term-by-term d_eps <= min{kl, c eps Delta_a} implies
    LB_eps >= Eq. 7 for every instance whose means (x = mu_a, y = mu*) lie in the box, whatever the number of
    arms. The margin min(kl - d_eps, c eps |x - y| - d_eps) is enclosed through the two identities.
    """
    import mpmath

    def margin(b):
        X, Y, E = b["x"], b["y"], b["epsilon"]
        return imin(en.margin_kl_minus_d_eps(X, Y, E), en.margin_eps_tv_minus_d_eps(X, Y, E, c)) if c >= 1 else \
            imin(en.margin_kl_minus_d_eps(X, Y, E),
                 Interval(c) * E * en.tv_range(X, Y) - en.d_eps_range(X, Y, E))

    def point(p):
        d = d_eps_definition_mp(p["x"], p["y"], p["epsilon"])
        return min(_mp_kl(p["x"], p["y"]), c * p["epsilon"] * mpmath.fabs(p["x"] - p["y"])) - d

    return Claim(
        name=f"seed 001 Thm 3.1 >= Eq. 7 (c = {c:g}), per arm: d_eps <= min(kl, {c:g} eps Delta)",
        statement=(f"for every (x = mu_a, y = mu*, epsilon) in the box: d_eps(x, y) <= min(kl(x, y), {c:g} eps |y - x|); "
                   "hence each term Delta_a/d_eps of Thm 3.1 >= the term Delta_a/min(kl, c eps Delta_a) of Eq. 7, and "
                   "LB_eps(nu) >= Eq. 7 for every instance with means in the box (any number of arms)"),
        margin=margin, point_margin=point, box=dict(THM31_BOX, **(box or {})),
        source="seed 001 Thm 3.1 (Eq. 5), Eq. 7; ERRATA 15",
    )


def prove_thm31_ge_eq7(c: float = 6.0, box=None, **limits) -> ProofResult:
    return thm31_ge_eq7_claim(c).prove(box, **limits)


# ----------------------------------------------------------------------------------------------------
# closed form of d_eps = its definition
# ----------------------------------------------------------------------------------------------------
def _syms():
    import sympy

    return [sympy.Symbol(n, positive=True) for n in ("x", "y", "epsilon", "z")]


def _reduce(expr):
    """sympy reduction of an expression in x, y, epsilon that should be 0: substitute x = p/(1+p),
    y = q/(1+q) (so that x, 1-x, y, 1-y are visibly positive and logs split), expand logs, simplify."""
    import sympy

    x, y, e, _ = _syms()
    p, q = sympy.symbols("p q", positive=True)
    r = expr.subs({x: p / (1 + p), y: q / (1 + q)})
    r = sympy.simplify(sympy.expand_log(sympy.simplify(r), force=True))
    if r != 0:
        r = sympy.simplify(r.subs({p: x / (1 - x), q: y / (1 - y)}))
    return r


@lru_cache(maxsize=8)
def _closed_form_plan(closed):
    """Per piece of the closed form: reduced duality gaps and feasibility conditions (see ``d_eps_closed_form_claim``)."""
    import sympy

    from ..info import d_epsilon_definition_sym

    x, y, e, z = _syms()
    if not isinstance(closed, sympy.Piecewise) or len(closed.args) != 2:
        raise ValueError("the closed form must be a two-piece sympy Piecewise (low-privacy piece first)")
    (low, cond), (high, _) = closed.args
    if not isinstance(cond, sympy.core.relational.Relational) or cond.rel_op not in (">=", ">", "<=", "<"):
        raise ValueError("the first piece's condition must be an inequality")
    c_low = cond.lhs - cond.rhs if cond.rel_op in (">=", ">") else cond.rhs - cond.lhs  # >= 0 on the low piece
    G = d_epsilon_definition_sym()
    G = G.replace(sympy.Abs, lambda a: a if sympy.expand(a - (z - x)) == 0 else -a)  # z >= x on the half x <= y
    eps0 = sympy.log(y * (1 - x) / (x * (1 - y)))

    def phi(lam):
        return -lam * x - sympy.log(1 - y + y * sympy.exp(-lam))

    zu = y / (y + (1 - y) * sympy.exp(e))
    dom = y - x
    pieces = []
    # low piece: certificates z* = x, lam* = eps_0
    pieces.append({
        "name": "low-privacy piece (z* = x, lam* = eps_0)",
        "cond": c_low, "strict": cond.rel_op in (">", "<"),
        "gapU": _reduce(G.subs(z, x) - low), "gapL": _reduce(low - phi(eps0)),
        # (margin, premise) pairs: margin >= 0 is needed where the piece applies; premise (if any) implies it
        "feas": [(y - x, dom, _reduce((y - x) - dom)),          # z* <= y
                 (e - eps0, c_low, _reduce((e - eps0) - c_low))],  # lam* <= eps
    })
    # high piece: certificates z* = z_u = sigma(logit y - eps), lam* = eps
    yzu = y * (1 - y) * (sympy.exp(e) - 1) / (y + (1 - y) * sympy.exp(e))  # = y - z_u (checked below)
    if _reduce(yzu - (y - zu)) != 0:
        raise AssertionError("y - z_u identity failed in sympy")
    logit_gap = eps0 - e  # = logit z_u - logit x (checked below)
    if _reduce(sympy.log(zu / (1 - zu)) - sympy.log(x / (1 - x)) - logit_gap) != 0:
        raise AssertionError("logit z_u identity failed in sympy")
    pieces.append({
        "name": "high-privacy piece (z* = sigma(logit y - eps), lam* = eps)",
        "cond": -c_low, "strict": cond.rel_op in (">=", "<="),
        "gapU": _reduce(G.subs(z, zu) - high), "gapL": _reduce(high - phi(e)),
        "feas": [(logit_gap, -c_low, _reduce(logit_gap - (-c_low))),  # z* >= x  (logit z* - logit x >= 0)
                 (yzu, None, None)],                                    # z* <= y
    })
    return closed, pieces


def d_eps_closed_form_claim(closed=None, box=None, tol: float = 0.0) -> Claim:
    """The closed form of d_eps (seed 001 Eq. 8 / Lemma F.1; default: ``boundcalc.info.d_epsilon_sym()``, the
    two-piece Piecewise for x <= y) equals its definition inf_z eps|z - x| + kl(z, y) (seed 001 Eq. 6).

    What is proven, for every (x, y, epsilon) of the box with x <= y (the part x >= y is the mirror box
    (1 - x, 1 - y), by the symmetry kl(z, y) = kl(1-z, 1-y) of the definition and of boundcalc's closed form):
    on each piece i of the closed form, with the certificates z*_i (primal) and lam*_i (dual) of Lemma F.1,
      (a) G(z*_i) - closed_i <= tol and closed_i - phi(lam*_i) <= tol, where G(z) = eps (z - x) + kl(z, y) and
          phi(lam) = -lam x - ln(1 - y + y e^{-lam}) (both differences are first reduced by sympy; for the
          paper's formula they reduce to exactly 0);
      (b) the certificates are feasible wherever the piece applies: x <= z*_i <= y and lam*_i <= eps (z* >= x
          is checked as logit z* - logit x >= 0), each either enclosed >= 0 on the box or implied by the
          piece's condition / by x <= y through a sympy-reduced difference;
      (c) by weak duality (for lam in [0, eps] and z in [x, y]: eps (z - x) >= lam (z - x) and
          kl(z, y) >= -lam z - ln(1 - y + y e^{-lam}), the Donsker-Varadhan bound), phi(lam*) <= def <= G(z*),
          so |closed - def| <= tol. lam*_low = eps_0 >= 0 on x <= y because logit is increasing (not computed).
    A counterexample is a point where |closed - def| > tol at 50 digits, def by golden-section minimisation.
    """
    import mpmath
    import sympy

    from ..info import d_epsilon_sym

    closed = d_epsilon_sym() if closed is None else closed
    closed_sym, pieces = _closed_form_plan(sympy.sympify(closed))
    from .sympy_eval import interval_eval

    x, y, e, _ = _syms()
    f_closed = sympy.lambdify((x, y, e), closed_sym, modules="mpmath")

    def requirement(b, piece):
        env = {"x": b["x"], "y": b["y"], "epsilon": b["epsilon"]}
        c = interval_eval(piece["cond"], env)
        if (c.hi < 0) or (piece["strict"] and c.hi <= 0):
            return Interval(float("inf"))  # the piece does not apply on this box
        applies_everywhere = c.lo > 0 or (c.lo >= 0 and not piece["strict"])
        reqs = [Interval(tol) - interval_eval(piece["gapU"], env), Interval(tol) - interval_eval(piece["gapL"], env)]
        for f, premise, diff in piece["feas"]:
            fv = interval_eval(f, env)
            if fv.lo >= 0:
                continue
            if premise is not None and diff is not None and interval_eval(diff, env).lo >= 0:
                continue  # f >= premise >= 0 wherever the premise holds
            if premise is not None:
                pv = interval_eval(premise, env)
                if pv.hi < 0:
                    continue
                if pv.lo < 0:  # the premise may fail here: a violation of f is not a counterexample yet
                    fv = Interval.hull(fv, Interval(0.0))
            reqs.append(fv)
        r = imin(*reqs)
        return r if applies_everywhere else Interval.hull(r, Interval(0.0))

    def margin(b):
        return imin(*(requirement(b, p) for p in pieces))

    def point(p):
        xv, yv, ev = p["x"], p["y"], p["epsilon"]
        return mpmath.mpf(tol) - abs(f_closed(xv, yv, ev) - d_eps_definition_mp(xv, yv, ev))

    def constraint(b):
        return b["y"] - b["x"]

    return Claim(
        name="closed form of d_eps (seed 001 Eq. 8) == definition (Eq. 6)" + (f" within {tol:g}" if tol else ""),
        statement=d_eps_closed_form_claim.__doc__.split("What is proven, ")[1].split("    A counterexample")[0].strip(),
        margin=margin, point_margin=point, box=dict(INFO_BOX, **(box or {})), tol=0.0,
        constraint=constraint, source="seed 001 Eq. 6, Eq. 8 / Lemma F.1 (Eqs. 30-32); sheet §2.3-2.4",
    )


def _mirror_box(box: dict) -> dict:
    out = dict(box)
    xl, xh = box["x"]
    yl, yh = box["y"]
    out["x"] = (max(0.0, float((1 - Interval(xh)).lo)), min(1.0, float((1 - Interval(xl)).hi)))
    out["y"] = (max(0.0, float((1 - Interval(yh)).lo)), min(1.0, float((1 - Interval(yl)).hi)))
    return out


def prove_d_eps_closed_form(box=None, closed=None, tol: float = 0.0, **limits) -> ProofResult:
    """Prove the closed form = definition on the box: the half x <= y directly, the half x >= y on the mirror box.

    Returns one ProofResult (boxes and times added; a counterexample of the mirror half is mapped back)."""
    claim = d_eps_closed_form_claim(closed, tol=tol)
    b = claim.full_box(box)
    r1 = claim.prove(b, **limits)
    if r1.verdict == COUNTEREXAMPLE:
        return r1
    r2 = claim.prove(_mirror_box(b), **limits)
    if r2.verdict == COUNTEREXAMPLE:
        pt = dict(r2.counterexample["point"])
        pt["x"], pt["y"] = 1 - pt["x"], 1 - pt["y"]
        r2.counterexample = dict(r2.counterexample, point=pt, note="found on the mirror half (1 - x, 1 - y)")
        r2.box = r1.box
        return r2
    verdict = PROVEN if (r1.verdict == PROVEN and r2.verdict == PROVEN) else UNDECIDED
    return ProofResult(
        claim=r1.claim, verdict=verdict, box=r1.box, boxes=r1.boxes + r2.boxes,
        undecided=r1.undecided + r2.undecided, n_undecided=r1.n_undecided + r2.n_undecided,
        seconds=r1.seconds + r2.seconds, evaluations=r1.evaluations + r2.evaluations,
        max_depth=max(r1.max_depth, r2.max_depth), outside=r1.outside + r2.outside, statement=r1.statement,
        backend=r1.backend, tol=tol, reason=r1.reason or r2.reason,
    )


INFO_PROVERS = {
    "d_eps<=kl": prove_d_eps_le_kl,
    "d_eps<=eps*tv": prove_d_eps_le_eps_tv,
    "d_eps closed form == definition": prove_d_eps_closed_form,
    "thm3.1>=eq7 (c=1)": lambda box=None, **kw: prove_thm31_ge_eq7(1.0, box, **kw),
    "thm3.1>=eq7 (c=6)": lambda box=None, **kw: prove_thm31_ge_eq7(6.0, box, **kw),
}
