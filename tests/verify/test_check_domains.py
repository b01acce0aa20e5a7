"""Quantity domains as domain conditions of ``check`` (issue 22 D1, D2 and the minor line; issue 23 item 2).

kl and tv take Bernoulli means in [0, 1], d_eps an ε > 0, a bound's keywords T >= 1, ρ > 0 … (boundcalc.domains, the
one declaration). An argument that leaves its domain inside the box is a domain gap, as for sqrt and log: the verdict
is "proven where defined" naming the part of the box outside (its share against the share computed here from the
argument's closed form), or "undefined on the box", never plain "proven on the box". An identity (both sides the same
expression) holds where defined; a counterexample lies where the expression is defined.

Each command of the issue on both interval backends (flint, mpmath-iv; the `backend` fixture of test_interval_fuzz)
and, in a slow subprocess, without flint installed. Mutants kept (each must make a test here fail): the parser records
no range condition (the old silent clip in the enclosures then proves the statements); the enclosures clip outside
``where_defined`` again; an identity reports "proven on the box" whatever the gaps; the prover's witness is not
checked against the domain; the 50-digit log accepts log(0) = -inf; literals up to 1e308 only.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from boundcalc import domains
from boundcalc.errors import InputError
from boundcalc.intervals import enclosures as en
from boundcalc.intervals import interval as ivm
from boundcalc.intervals.interval import DomainError, Interval
from boundcalc.verify import check as ck
from boundcalc.verify import expression as ex
from test_interval_fuzz import backend  # noqa: F401  (fixture: both interval backends, flint and mpmath-iv)
from mutation import mutate

ROOT = Path(__file__).resolve().parents[2]

# (expression, box, word, share of the box outside the domain computed here (None: a set too small to sample))
D1 = [
    # eps = (t - 0.5)^2 - 0.001 <= 0 where |t - 0.5| <= sqrt(0.001): share 2 sqrt(0.001) of t in [0, 1]
    ("d_eps(x, y, (t - 0.5)**2 - 0.001) >= 0", "x=0.1:0.2,y=0.7:0.8,t=0:1", "proven where defined",
     2 * math.sqrt(0.001)),
    # 1.005 - (x - 0.5)^2 > 1 where |x - 0.5| < sqrt(0.005)
    ("tv(1.005 - (x - 0.5)**2, y) <= 1 + 0*z", "x=0:1,y=0:1,z=0:1", "proven where defined", 2 * math.sqrt(0.005)),
    # 1 + 1e-9 - (x - 0.5)^2 > 1 where |x - 0.5| < sqrt(1e-9) = 3.2e-5: below the 1/4096 of the uniform samples
    ("kl(1 + 1e-9 - (x - 0.5)**2, 0.5) <= 1", "x=0:1", "proven where defined", None),
    # T = (t - 0.5)^2 - 1e-9 < 1 on the whole box: T >= 1 is the horizon's domain
    ('bound("003-thm9", T=(t - 0.5)**2 - 1e-9, rho=rho) >= 0', "t=0:1,rho=0.1:1", "undefined", 1.0),
    # T = 10 (t - 0.5)^2 + 0.9 < 1 where |t - 0.5| < 0.1
    ('bound("003-thm9", T=10*(t - 0.5)**2 + 0.9, rho=rho) >= 0', "t=0:1,rho=0.1:1", "proven where defined", 0.2),
    # eps < 0 on the whole box
    ("d_eps(x, y, (t - 0.5)**2 - 0.001) >= 0", "x=0.1:0.2,y=0.7:0.8,t=0.49:0.51", "undefined", 1.0),
]
D2 = [("exp(log(x)) == x", "x=-1:1", 0.5), ("x/x == 1", "x=-1:1", None), ("x**2/x == x", "x=-1:1", None)]
SAMPLES = ck.DOMAIN_SAMPLES


def _share_ok(got: float, want: float) -> bool:
    """The sampled share against the exact one: 5 standard deviations of a binomial share of SAMPLES points."""
    return abs(got - want) <= 5 * math.sqrt(max(want * (1 - want), 1e-4) / SAMPLES) + 1e-12


def _d1_verdict(out, word, share):
    assert out.word == word, out.verdict
    assert not out.verdict.startswith("proven on the box")
    assert out.domain_gaps, out.verdict
    if share is not None and word != "undefined":
        assert any(_share_ok(g.fraction, share) for g in out.domain_gaps), [g.fraction for g in out.domain_gaps]
    if share is None:  # too small to sample: a point of the gap is named (the centre, or the prover's point)
        assert all(g.example is not None for g in out.domain_gaps)


@pytest.mark.parametrize("text,box,word,share", D1, ids=[f"D1-{i}" for i in range(len(D1))])
def test_d1_quantity_domains_are_domain_conditions(text, box, word, share, backend):  # noqa: F811
    out = ck.run(text, box, max_seconds=5)
    _d1_verdict(out, word, share)


@pytest.mark.parametrize("text,box,share", D2, ids=[d[0] for d in D2])
def test_d2_identities_hold_where_defined(text, box, share, backend):  # noqa: F811
    out = ck.run(text, box, max_seconds=5)
    assert out.word == "proven where defined" and "an identity" in out.verdict, out.verdict
    assert out.domain_gaps and not out.verdict.startswith("proven on the box")
    if share is not None:  # log(x) undefined for x <= 0: half of x in [-1, 1]
        assert _share_ok(out.domain_gaps[0].fraction, share)
    else:  # x = 0, the one point outside: named
        assert out.domain_gaps[0].example == {"x": 0.0}
    assert ck.run("x == x", "x=-1:1").verdict.startswith("proven on the box")  # no gap: an identity as before


def test_witness_lies_where_defined(backend):  # noqa: F811
    """log(log(x)) >= -800 fails only for x - 1 < e^-800 (no double): x = 1 is outside the domain of the outer log
    (log(1) = 0), so it is no witness; log(x) >= -700 fails at x < e^-700 ~ 9.9e-305, a subnormal witness near 0."""
    out = ck.run("log(log(x)) >= -800", "x=1:2", max_seconds=5)
    assert out.word != "counterexample" and out.counterexample is None, out.verdict
    cex = ck.run("log(x) >= -700", "x=0:2", max_seconds=5).counterexample
    assert cex is not None and 0 < cex["x"] < math.exp(-700)
    g = ck.run("log(log(x)) >= -800", "x=1:2", method="grid", max_seconds=5)
    assert g.counterexample is None, g.verdict


def test_grid_reports_the_gap_instead_of_an_error():
    out = ck.run("kl(1.2*x, 0.5) <= 1", "x=0:1", method="grid", max_seconds=5)  # 1.2 x > 1 for x > 5/6
    assert "outside the domain of kl" in out.verdict and out.word == "no counterexample"
    assert _share_ok(out.domain_gaps[0].fraction, 1 / 6)


def test_constant_outside_its_domain_is_an_input_error():
    for text in ("kl(2, x) <= 1", "d_eps(x, 0.5, -1) >= 0", 'bound("003-thm9", T=0.5, rho=x) >= 0'):
        with pytest.raises(InputError):
            ex.parse(text)


def test_the_parser_reads_the_declaration():
    """Every declared argument range gives its conditions, worded from the declaration."""
    for name, args in domains.QUANTITY_ARGS.items():
        if name not in ex.FUNCTIONS:  # a registered quantity of the bounds (R_phases ...), not a function of check
            continue
        call = f"{name}(" + ", ".join(f"a{i}" for i in range(len(args))) + ") >= -1"
        conds = ex.parse(call).domain
        want = [f"a{i} {op} {b:g}" for i, (_, r) in enumerate(args) for _, b, op in r.conditions()]
        assert [c.holds_text() for c in conds] == want, name
    p = ex.parse('bound("003-thm9", T=T, rho=rho) >= 0')
    assert sorted(c.holds_text() for c in p.domain) == ["T >= 1", "rho > 0"]


def test_registered_quantities_declare_their_domains():
    """Quantity.domain (bounds/quantities.py) reads the one declaration, one Range per positional argument."""
    from boundcalc.bounds import quantities

    with_args = [q for q in quantities.all_quantities() if q.args]
    assert with_args
    for q in with_args:
        assert [a for a, _ in domains.quantity_args(q.name)] == list(q.args), q.name
        assert len(q.domain) == len(q.args) and all(isinstance(r, domains.Range) for r in q.domain)


def test_enclosures_never_clip_silently(backend):  # noqa: F811
    """Outside ``where_defined`` an argument interval reaching outside [0, 1] (or eps below 0) is a DomainError;
    inside it the enclosure covers the part inside (the caller reports the rest)."""
    with pytest.raises(DomainError):
        en.kl_range(Interval(-0.1, 0.5), Interval(0.5))
    with pytest.raises(DomainError):
        en.tv_range(Interval(0.5, 1.01), Interval(0.5))
    with pytest.raises(DomainError):
        en.d_eps_range(Interval(0.1), Interval(0.7), Interval(-0.001, 1.0))
    from boundcalc.rigorous.sympy_eval import where_defined

    with where_defined():
        r = en.kl_range(Interval(-0.1, 0.5), Interval(0.5))
    assert r.lo == 0.0 and r.hi >= math.log(2) - 1e-12  # kl(0, 1/2) = ln 2, the largest on [0, 1/2]


def test_docs_quote_the_declaration():
    text = (ROOT / "docs" / "verify.md").read_text()
    assert domains.table_markdown() in text


def test_largest_double_is_a_literal():
    out = ck.run("x <= 1.5e308", "x=0:1e308", max_seconds=5)
    assert out.word == "proven"
    with pytest.raises(InputError):
        ex.parse("x <= 1.8e308")
    import warnings

    with warnings.catch_warnings():  # a box up to the largest double: its grid without an overflow warning
        warnings.simplefilter("error")
        assert ck.run("x >= 0", "x=0:1.7976931348623157e308", method="grid", max_seconds=5).counterexample is None


# ---------------------------------------------------------------------------------------------------------------
# a property: an affine argument crossing a domain boundary inside the box is never "proven on the box"
@settings(max_examples=10, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(fn=st.sampled_from(["kl", "tv", "d_eps", "T", "rho"]), side=st.sampled_from(["lo", "hi"]),
       root=st.floats(0.05, 0.95), slope=st.floats(0.5, 5.0), sign=st.sampled_from([1.0, -1.0]))
@example(fn="T", side="lo", root=0.5, slope=2.0, sign=1.0)
@example(fn="rho", side="lo", root=0.3, slope=2.5, sign=-1.0)
@example(fn="d_eps", side="lo", root=0.7, slope=1.0, sign=1.0)
def test_property_crossing_arguments_are_never_plainly_proven(fn, side, root, slope, sign):
    """arg = s (x - r) (+ 1 for the upper end) crosses 0 (or 1) at x = r inside x in [0, 1]; the statement holds
    wherever it is defined (kl, tv, d_eps, a bound >= 0), so the verdict must be "proven where defined" with a gap.
    For a bound's keywords: T = s (x - r) + 1 crosses T = 1, rho = s (x - r) crosses 0."""
    s = sign * slope
    arg = f"{s!r}*(x - {root!r})" + (" + 1" if (side == "hi" and fn != "rho") or fn == "T" else "")
    if fn == "T":
        text = f'bound("003-thm9", T={arg}, rho=0.5) >= 0'
    elif fn == "rho":
        text = f'bound("003-thm9", T=100, rho={arg}) >= 0'
    elif fn == "d_eps":
        text = f"d_eps(0.3, 0.6, {arg}) >= 0" if side == "lo" else f"d_eps({arg}, 0.6, 1) >= 0"
    else:
        text = f"{fn}({arg}, 0.5) >= 0"
    out = ck.run(text, "x=0:1", max_seconds=5)
    assert not out.verdict.startswith("proven on the box") and out.word != "proven", (text, out.verdict)
    assert out.word in ("proven where defined", "undecided"), (text, out.verdict)
    assert out.domain_gaps


# ---------------------------------------------------------------------------------------------------------------
# mutants (kept): each one-line mistake makes a check above fail
def _fails(fn, *args):
    try:
        fn(*args)
    except (Exception, pytest.fail.Exception):  # an assertion, pytest.raises' "DID NOT RAISE", an InputError
        return True
    return False


def test_mutant_no_range_conditions(monkeypatch):
    """The parser records no declared range: the enclosures' clip (under where_defined) proves the D1 statements."""
    monkeypatch.setattr(ex._Builder, "_ranges", mutate(ex._Builder._ranges, "for side, bound, op in rng.conditions():",
                                                        "for side, bound, op in ():"))
    text, box, word, share = D1[2]
    assert _fails(lambda: _d1_verdict(ck.run(text, box, max_seconds=5), word, share))


def test_mutant_enclosures_clip_again(monkeypatch):
    monkeypatch.setattr(ivm, "inside", mutate(ivm.inside, "if a > b or not WHERE_DEFINED[0]:", "if a > b:"))
    monkeypatch.setattr(en, "inside", ivm.inside)
    assert _fails(test_enclosures_never_clip_silently, "flint")


def test_mutant_identity_ignores_gaps(monkeypatch):
    monkeypatch.setattr(ck, "_run", mutate(ck._run, "_proven_words(bool(gaps), False)", "_proven_words(False, False)"))
    assert _fails(test_d2_identities_hold_where_defined, *D2[0][:3], "flint")


def test_mutant_witness_outside_the_domain(monkeypatch):
    monkeypatch.setattr(ck, "_run", mutate(ck._run, "_point_domain(p) if gaps else None", "None"))
    assert _fails(test_witness_lies_where_defined, "flint")


def test_mutant_mp_log_of_zero(monkeypatch):
    monkeypatch.setattr(ex._Builder, "call", mutate(ex._Builder.call, 'if (fname == "log" and vals[0] <= 0)',
                                                    'if (fname == "log" and vals[0] < 0)'))
    assert _fails(test_witness_lies_where_defined, "flint")  # the grid's witness x = 1 (outside) comes back


def test_mutant_literal_limit(monkeypatch):
    monkeypatch.setattr(ex, "MAX_CONSTANT", 1e308)
    assert _fails(test_largest_double_is_a_literal)


# ---------------------------------------------------------------------------------------------------------------
# without flint: the same verdicts from a process where `import flint` fails
_NOFLINT = """
import json, sys
sys.modules["flint"] = None
from boundcalc.verify import check as ck
from boundcalc.intervals.interval import backend_name
out = []
for text, box in json.loads(sys.argv[1]):
    r = ck.run(text, box, max_seconds=5)
    out.append([r.word, r.verdict, [g.fraction for g in r.domain_gaps], backend_name()])
print(json.dumps(out))
"""


@pytest.mark.slow
def test_without_flint():
    cases = [(t, b) for t, b, *_ in D1] + [(t, b) for t, b, _ in D2]
    r = subprocess.run([sys.executable, "-c", _NOFLINT, json.dumps(cases)], capture_output=True, text=True,
                       cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=300)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    for (text, box, word, share), (w, verdict, fracs, name) in zip(D1, got):
        assert name == "mpmath-iv" and w == word and not verdict.startswith("proven on the box"), (text, verdict)
        if share is not None and word != "undefined":
            assert any(_share_ok(f, share) for f in fracs)
    for (text, box, _), (w, verdict, _, _) in zip(D2, got[len(D1):]):
        assert w == "proven where defined", (text, verdict)
