"""Hostile input and one-line mistakes of issue 22 §4, each with a test that fails on the mistake (the mutant kept).

The contract (docs, ``boundcalc.errors.InputError``): bad input gives one line on stderr naming the option and its
allowed range, exit 2; never a traceback, an internal error, a hang, a memory blow-up, NaN at exit 0, a file written
despite an error, or an invalid input accepted.
"""

from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest
from typer.testing import CliRunner

from boundcalc.cli.app import app
from boundcalc.cli import flags
from mutation import mutate


@pytest.fixture(autouse=True)
def _no_plugin_survives():
    """The plugin bounds and algorithms these tests load (ee-hostile, Bad-Sim, …) leave the shared registries as they
    were: a later test in the same worker must not meet them (ee-hostile met a budget target at ε = 1e-30)."""
    from boundcalc.algorithms import plugins as alg_plugins
    from boundcalc.bounds import plugins as bound_plugins

    yield
    bound_plugins.reset()
    alg_plugins.reset()

runner = CliRunner()


def _run(args):
    return runner.invoke(app, args)


def _one_line(r, *names) -> str:
    """The one error line of a run that exited 2, naming each of ``names``."""
    assert r.exit_code == 2, (r.exit_code, r.output)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("boundcalc: error: "), lines[0]
    assert "Traceback" not in r.output and "internal error" not in r.output
    for n in names:
        assert n in lines[0], (n, lines[0])
    return lines[0]


class _Reached(BaseException):
    """Raised by a sentinel standing in for the work: the command got past its checks (a BaseException, so no
    ``except Exception`` of the code under test swallows it)."""


# -- a declared bound exp(exp(T)): the mpmath evaluation is overflow-safe --------------------------------------------
EE_TOML = ('[[bound]]\nid = "ee-hostile"\ntitle = "t"\nsource = "x"\nsetting = "finite"\nnotion = "pure"\n'
           'kind = "upper-minimax"\nnonprivate = "exp(exp(T)) + 2**(2**T)"\nprivacy_cost = "1/epsilon"\n'
           'assumptions = ["epsilon > 0"]\n')


def _guarded_exp(x, **k):
    """mpmath.exp that refuses an argument whose exact exponential would take for ever (ln 2 to log2(x) bits)."""
    import mpmath

    if abs(x) > 2.0**60:
        raise _Reached(f"exp of {mpmath.nstr(x, 3)}")
    return mpmath.exp(x, **k)


def test_declared_exp_exp_is_overflow_safe(monkeypatch):
    """exp(exp(T)) at T = 1e9 (the load-time check's grid) is +inf at once; the bound loads and its mpmath value at
    T = 3 is the exact e^(e^3) + 2^8 (mpmath at 30 digits, independently). (mpmath.exp itself is not monkeypatched:
    sympy's lambdify keeps the first mpmath namespace it sees for the whole process.)"""
    import mpmath
    import sympy

    from boundcalc.bounds import declared
    from boundcalc.rigorous.deadline import limit

    with limit(20):  # a regression is a TimeLimit here, not a hang of the suite
        b = declared.DeclaredBound(**_ee_fields(), origin="test")
        a, _ = b._f_mp(mpmath.mpf(1e9), mpmath.mpf(1))
    assert a == mpmath.inf
    assert declared._safe_exp(mpmath.mpf(2.0**41)) == mpmath.inf and declared._safe_exp(-mpmath.mpf(2.0**41)) == 0
    assert declared._safe_pow(mpmath.mpf(2), mpmath.mpf(2.0**41)) == mpmath.inf
    with mpmath.workdps(30):
        a3, c3 = b._f_mp(mpmath.mpf(3), mpmath.mpf(2))
        assert abs(a3 - (mpmath.e ** mpmath.e**3 + 256)) < 1e-20 * a3 and c3 == mpmath.mpf(1) / 2
    # mutant: sympy's plain mpmath lambdify computes exp(exp(1e9)) exactly (the hang of issue 22); its exp guarded
    monkeypatch.setattr(declared, "overflow_safe_mp", lambda args, exprs: sympy.lambdify(
        args, exprs, modules=[{"exp": _guarded_exp}, "mpmath"]))
    with pytest.raises(_Reached):
        declared.DeclaredBound(**{**_ee_fields(), "id": "ee-hostile-2"}, origin="test")


def _ee_fields():
    import tomllib

    return tomllib.loads(EE_TOML)["bound"][0]


def test_regret_with_exp_exp_bound_file_shows_infinity(tmp_path):
    p = tmp_path / "b_ee.toml"
    p.write_text(EE_TOML)
    r = _run(["regret", "--setting", "finite", "--epsilon", "1", "--T", "1000", "--bounds-file", str(p), "--json"])
    assert r.exit_code == 0, r.output
    rows = [b for b in json.loads(r.stdout)["bounds"] if b.get("id") == "ee-hostile"]
    assert rows and rows[0]["value"] == "inf", rows


# -- --save-instance is written only when the command ends without an error ----------------------------------------
SAVE_LATE_ERRORS = [  # each fails on an option checked after the instance was built
    ["budget", "--setting", "finite", "--max-regret", "1000", "--pairing", "junk"],
    ["simulate", "--algo", "DP-SE", "--epsilon", "1", "--T", "100", "--runs", "2", "--executor", "dask"],
    ["simulate", "--algo", "KL-UCB", "--T", "1e9", "--runs", "1e6"],
]


@pytest.mark.parametrize("args", SAVE_LATE_ERRORS, ids=lambda a: " ".join(a[:1] + a[-2:]))
def test_no_saved_instance_after_an_error(args, tmp_path):
    out = tmp_path / "s.toml"
    r = _run([*args, "--save-instance", str(out)])
    _one_line(r)
    assert not out.exists()


def test_saved_instance_on_success_and_mutant_writing_early(tmp_path, monkeypatch):
    from boundcalc.cli import instance_options
    from boundcalc.envs import spec

    out = tmp_path / "s.json"
    r = _run(["budget", "--setting", "finite", "--max-regret", "1000", "--save-instance", str(out)])
    assert r.exit_code == 0, r.output
    assert spec.load_instance(str(out)).to_dict()["means"] == pytest.approx([0.75, 0.625, 0.5, 0.375, 0.25])
    # mutant: the instance written at once (before the options checked later)
    monkeypatch.setattr(instance_options, "save", mutate(instance_options.save,
                                                         "common.after_success(lambda: spec.save_instance(inst, path))",
                                                         "spec.save_instance(inst, path)"))
    out2 = tmp_path / "s2.toml"
    r = _run([*SAVE_LATE_ERRORS[0], "--save-instance", str(out2)])
    assert r.exit_code == 2 and out2.exists()


# -- input files: regular, of bounded size ---------------------------------------------------------------------------
@pytest.mark.parametrize("option,name,extra", [
    ("--instance", "zero.json", ["regret", "--setting", "finite", "--epsilon", "1"]),
    ("--instance", "zero.toml", ["simulate", "--algo", "DP-SE", "--epsilon", "1", "--T", "100"]),
    ("--bounds-file", "zero.toml", ["regret", "--setting", "finite", "--epsilon", "1"]),
    ("--algorithms-file", "zero.py", ["simulate", "--algo", "DP-SE", "--epsilon", "1", "--T", "100"]),
    ("--actions", "zero.csv", ["regret", "--setting", "linear", "--rho", "1"]),
])
def test_a_link_to_dev_zero_is_refused_before_reading(option, name, extra, tmp_path):
    link = tmp_path / name
    os.symlink("/dev/zero", link)
    line = _one_line(_run([*extra, option, str(link)]), option)
    assert "regular file" in line


def test_an_oversized_instance_is_refused_and_mutant_reads_it(tmp_path, monkeypatch):
    from boundcalc import validate
    from boundcalc.envs import spec
    from boundcalc.errors import InputError

    p = tmp_path / "big.json"
    spec.save_instance(spec.Instance("finite", means=(0.5, 0.4)), str(p))
    p.write_text(p.read_text() + " " * 2000)
    monkeypatch.setitem(validate.MAX_INPUT_BYTES, "instance", 1000)
    with pytest.raises(InputError, match=r"instance_file .* at most 1000 bytes .*2\d\d\d bytes") as e:
        spec.load_instance(str(p))
    assert flags.message(e.value).startswith("--instance ")  # the CLI names its flag
    # mutant: the size check skipped (the file read whole, as /dev/zero was until MemoryError)
    monkeypatch.setattr(validate, "input_file", mutate(validate.input_file, "if st.st_size > cap:", "if False:"))
    with pytest.raises(InputError, match="larger"):  # only the read cap is left
        spec.load_instance(str(p))
    monkeypatch.setattr(validate, "read_input_file", mutate(validate.read_input_file, "if len(raw) > cap:",
                                                            "if False:"))
    assert list(spec.load_instance(str(p)).to_dict()["means"]) == [0.5, 0.4]


# -- --scheduler: an address distributed cannot use is one line, before a Client is made -----------------------------
@pytest.mark.parametrize("address,words", [("inproc://a:1", "HOST:PORT"), ("ucx://a:1", "ucx-py"),
                                           ("tls://localhost:1", "TLS configuration")])
def test_scheduler_addresses_that_cannot_be_used(address, words, monkeypatch):
    pytest.importorskip("distributed")
    import distributed

    monkeypatch.setattr(distributed, "Client", lambda *a, **k: (_ for _ in ()).throw(_Reached()))
    r = _run(["simulate", "--algo", "DP-SE", "--epsilon", "1", "--T", "100", "--runs", "2", "--executor", "dask",
              "--scheduler", address])
    assert words in _one_line(r, "--scheduler")


def test_scheduler_mutant_accepting_inproc_reaches_the_client(monkeypatch):
    pytest.importorskip("distributed")
    import distributed

    from boundcalc.cli import executor_options

    monkeypatch.setattr(distributed, "Client", lambda *a, **k: (_ for _ in ()).throw(_Reached()))
    monkeypatch.setattr(executor_options, "SCHEDULER_ADDRESS", executor_options.SCHEDULER_ADDRESS.replace("tls|", "tls|inproc|"))
    with pytest.raises(_Reached):
        _run(["simulate", "--algo", "DP-SE", "--epsilon", "1", "--T", "100", "--runs", "2", "--executor", "dask",
              "--scheduler", "inproc://a:1"])


# -- check: binom_tail's 50-digit re-check at n = 1e18 --------------------------------------------------------------
def test_binom_tail_mp_exact_small_and_out_of_range_huge(monkeypatch):
    """The 50-digit sum against scipy's binomial CDF (independent), and n = 1e18 out of range at once (it summed 5e17
    terms, past --max-seconds); with the term limit lifted (mutant) the time limit still holds inside the sum."""
    import mpmath
    from scipy import stats

    from boundcalc.rigorous.deadline import TimeLimit, limit
    from boundcalc.verify import functions

    with mpmath.workdps(50):
        for n, p, k in [(10, 0.3, 5), (1000, 0.01, 20), (5, 0.2, 5), (5, 0.2, 0), (400, 0.7, 250)]:
            x = mpmath.mpf(k) / n + mpmath.mpf(10) ** -30
            assert float(functions._binom_tail_mp(n, mpmath.mpf(p), x)) == pytest.approx(stats.binom.cdf(k, n, p),
                                                                                        rel=1e-12, abs=1e-300)
        with pytest.raises(OverflowError):
            functions._binom_tail_mp(10**18, mpmath.mpf(0.3), mpmath.mpf(0.5))
        monkeypatch.setattr(functions, "BINOM_MP_TERMS", 10**30)  # mutant: no term limit
        with pytest.raises(TimeLimit), limit(0.05, alarm=False):
            functions._binom_tail_mp(10**18, mpmath.mpf(0.3), mpmath.mpf(0.5))


def test_check_binom_tail_huge_n_ends():
    r = _run(["check", "binom_tail(n, p, x) <= 1", "--box", "n=1:1e18,p=0:1,x=0:1", "--points", "300",
              "--max-seconds", "2", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["verdict"].startswith("no counterexample")


# -- lower: no NaN at extreme means; the Bretagnolle–Huber factor 1/4 recomputed ------------------------------------
def test_lower_extreme_gaussian_means():
    """Means ±1e308 (the gap 2e308 overflows) and 1e308, 0: exp(−KL) = 0 at ρ = 1, so the bound is 0 (T·c/4 · 0 was
    inf · 0 = NaN at exit 0)."""
    for m, alt in (("1e308,-1e308", "-1e308,1e308"), ("1e308,0", "0,1e308")):
        r = _run(["lower", "--rho", "1", "--means", m, "--alt-means", alt, "--family", "gaussian", "--json"])
        assert r.exit_code == 0, r.output
        d = json.loads(r.stdout)
        assert d["lower_bound"]["sum_lower"] == 0.0 and d["best_sum_lower"] == 0.0 and "nan" not in r.stdout
    # ρ = 1e-320: KL ≈ 4e-312 (subnormal), the gap c = 2e308 beyond float: the bound ≈ T·c/4 beyond float too (inf)
    r = _run(["lower", "--rho", "1e-320", "--means", "1e308,-1e308", "--alt-means", "-1e308,1e308", "--family",
              "gaussian", "--T", "2", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["best_sum_lower"] == "inf", r.output
    r = _run(["lower", "--rho", "1", "--means", "0.6,0.4", "--alt-means", "0.4,0.6", "--family", "gaussian",
              "--sigma", "1e300", "--json"])  # (μ − μ')²/(2σ²) underflows to 0 (σ² overflowed: internal error)
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["best_sum_lower"] == pytest.approx(1e4 * 0.2 / 4)


def test_lower_bretagnolle_huber_value_independent(monkeypatch):
    """ν = (0.6, 0.4), ν' = (0.4, 0.6) Bernoulli, ρ = 1e-8, T = 1e4, by hand (seed 003 Thm 8 worst case and App.
    G-B1): t_a = 0.2, KL ≤ ρ((0.2 T)² + 0.2·0.8 T) (below T·kl(0.6, 0.4) = 0.2 T ln 1.5), c = 0.2, and
    Reg(ν) + Reg(ν') ≥ (T c / 4) exp(−KL)."""
    from boundcalc.lower import kl_decomposition as kd

    T, rho = 1e4, 1e-8
    kl = min(rho * ((0.2 * T) ** 2 + 0.2 * 0.8 * T), T * 0.2 * math.log(1.5))
    want = T * 0.2 / 4 * math.exp(-kl)
    args = ["lower", "--rho", "1e-8", "--means", "0.6,0.4", "--alt-means", "0.4,0.6", "--T", "1e4", "--json"]
    d = json.loads(_run(args).stdout)
    assert d["kl_bound_used"] == pytest.approx(kl, rel=1e-12)
    assert d["best_sum_lower"] == pytest.approx(want, rel=1e-12)
    assert d["best_max_lower"] == pytest.approx(want / 2, rel=1e-12)
    # mutant: the factor 1/4 written 1/2
    monkeypatch.setattr(kd, "implied_lower_bound", mutate(kd.implied_lower_bound, "T / 4", "T / 2"))
    assert json.loads(_run(args).stdout)["best_sum_lower"] != pytest.approx(want, rel=1e-6)


# -- rich markup in user text ----------------------------------------------------------------------------------------
MARKUP_NAME = "[bold]x[/] [/red] [link=evil]"


@pytest.fixture
def markup_instance(tmp_path):
    from boundcalc.envs import spec

    p = tmp_path / "mk.toml"
    spec.save_instance(spec.Instance("finite", name=MARKUP_NAME, means=(0.6, 0.4)), str(p))
    return str(p)


@pytest.mark.parametrize("args", [
    ["regret", "--setting", "finite", "--epsilon", "1"],
    ["regret", "--setting", "finite", "--epsilon", "1,2"],
    ["budget", "--setting", "finite", "--max-regret", "100", "--by", "bound"],
    ["lower", "--rho", "1", "--alt-means", "0.4,0.6"],
], ids=lambda a: " ".join(a[:3]))
def test_instance_name_with_markup_printed_as_written(args, markup_instance):
    r = _run([*args, "--instance", markup_instance])
    assert r.exit_code == 0, r.output
    assert MARKUP_NAME in r.stdout.replace("\n", " ") and "[dim]" not in r.stdout


def test_markup_mutants(markup_instance, monkeypatch):
    """Mutants: the name unescaped (a MarkupError, printed again without any markup: the command's own [dim] or
    [cyan] tags show); and the console without that fallback (an internal error)."""
    from rich.console import Console

    from boundcalc.cli import common

    args = ["regret", "--setting", "finite", "--epsilon", "1", "--instance", markup_instance]
    monkeypatch.setattr(common, "esc", lambda text: str(text))
    r = _run(args)
    assert r.exit_code == 0 and ("[dim]" in r.stdout or "[cyan]" in r.stdout)  # the command's own tags, as text
    monkeypatch.setattr(common, "console", lambda stderr=False: Console(stderr=stderr, width=140))
    r = _run(args)
    assert r.exit_code != 0 and type(r.exception).__name__ == "MarkupError"


# -- budget --min-T: options it does not read are refused, not ignored ----------------------------------------------
MIN_T = ["budget", "--setting", "finite", "--min-T", "--epsilon", "1", "--max-overhead", "0.5"]


@pytest.mark.parametrize("extra,flag", [
    (["--quantile", "7", "--report", "no/such/x.html", "--counterpart", "nope"], "--quantile"),
    (["--counterpart", "nope"], "--counterpart"), (["--report", "x.html"], "--report"), (["--T", "1e5"], "--T"),
    (["--by", "simulation"], "--by"), (["--notion", "rho"], "--notion"), (["--runs", "10"], "--runs"),
    (["--max-ratio-to-lower", "3"], "--max-ratio-to-lower"),
])
def test_min_T_refuses_options_it_ignores(extra, flag):
    args = [*MIN_T, *extra]
    if flag == "--max-ratio-to-lower":
        args = [a for a in MIN_T if a not in ("--max-overhead", "0.5")] + extra
    _one_line(_run(args), flag)


def mutate_command(func, old: str, new: str):
    """``mutate`` for a command defined inside ``register(app)``: its decorators (``@app.command``, ``@command``)
    dropped from the source before the edit is compiled (the caller wraps the result in ``common.command``)."""
    import inspect
    import textwrap

    src = textwrap.dedent(inspect.getsource(func))
    lines = src.splitlines(keepends=True)
    while lines[0].lstrip().startswith("@"):
        lines.pop(0)
    src = "".join(lines)
    assert src.count(old) == 1, old
    ns = dict(func.__globals__)
    exec(compile(src.replace(old, new), inspect.getsourcefile(func), "exec"), ns)  # noqa: S102 - test mutant
    return ns[func.__name__]


def _command(name):
    return next(c for c in app.registered_commands if (c.name or c.callback.__name__) == name)


def test_min_T_still_answers_and_mutant_ignoring_is_caught(monkeypatch):
    r = _run([*MIN_T, "--by", "bound", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["inputs"]["mode"] == "min-T"
    # mutant: the options --min-T does not read ignored again (exit 0 with --counterpart nope)
    holder = _command("budget")
    real = holder.callback.__wrapped__
    broken = mutate_command(real, 'common.refuse({"--by": None if by == "bound" else by,',
                            '(lambda *a: None)({"--by": None if by == "bound" else by,')
    from boundcalc.cli import common

    monkeypatch.setattr(holder, "callback", common.command(broken))
    assert _run([*MIN_T, "--counterpart", "nope"]).exit_code == 0


# -- audit: the probe on a user's instance is sized before any run -------------------------------------------------
def test_audit_huge_instance_refused_before_any_run(monkeypatch):
    from boundcalc.audit import run as audit_run
    from boundcalc.audit import scenarios

    def reached(*a, **k):
        raise _Reached()

    monkeypatch.setattr(audit_run, "run_audit", reached)
    args = ["audit", "--algo", "DP-KLUCB", "--epsilon", "1", "--trials", "100", "--K", "20000"]
    line = _one_line(_run(args), "--K")
    # (K·m + 1)·K ≤ 4e6 with m = 8 initial pulls: K ≤ 707, solved independently
    kmax = max(k for k in range(1, 2000) if (8 * k + 1) * k <= 4_000_000)
    assert f"at most {kmax} arms" in line and kmax == 707
    # mutant: no size check (the 23.8 GiB table was drawn after the designed probes had run)
    monkeypatch.setattr(scenarios, "MAX_INSTANCE_CELLS", 10**15)
    with pytest.raises(_Reached):
        _run(args)


# -- --prior-param: text that is no number -------------------------------------------------------------------------
@pytest.mark.parametrize("setting,budget,prior,param", [
    ("linear", ["--rho", "1"], "sphere", "radius=abc"), ("linear", ["--rho", "1"], "sphere", "K=abc"),
    ("glm", ["--ldp-epsilon", "1"], "sphere", "sigma=abc"),
    ("finite", ["--epsilon", "1"], "uniform-gaps", "best_low=abc"),
    ("finite", ["--epsilon", "1"], "uniform-means", "family=1"),
])
def test_prior_param_not_a_number_is_one_line(setting, budget, prior, param):
    name = param.split("=")[0]
    _one_line(_run(["regret", "--setting", setting, *budget, "--prior", prior, "--instances", "3", "--prior-param",
                    param]), f"--prior-param {name}")


def test_prior_param_mutant_float_unguarded(monkeypatch):
    """Mutant: ``real`` without its ValueError guard: radius=abc is an internal error (a ValueError escapes)."""
    from boundcalc.envs import spec
    from boundcalc.errors import InputError

    with pytest.raises(InputError, match="prior_param radius") as e:
        spec.make_prior("sphere", "linear", radius="abc")
    assert flags.message(e.value).startswith("--prior-param radius must be")
    monkeypatch.setattr(spec, "make_prior", mutate(spec.make_prior, "except (TypeError, ValueError):",
                                                   "except (TypeError, KeyError):"))
    with pytest.raises(ValueError) as e:
        spec.make_prior("sphere", "linear", radius="abc")
    assert not isinstance(e.value, InputError)


# -- plugins: errors name the plugin; one file named two ways; the one-class entry point -----------------------------
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BAD_PLUGIN = '''
from boundcalc.algorithms.base import Algorithm


class _Base(Algorithm):
    source = "a test"
    setting = "finite"
    notion = "pure"
    budget_params = ("epsilon",)
    granularity = "episode"
    audit_scenario = "first-decision"

    def reference(self, env, T, rng):
        raise NotImplementedError


class BadInit(_Base):
    name = "Bad-Init"

    def __init__(self, epsilon):
        raise RuntimeError("boom in init")

    def simulate(self, env, T, runs, rng, checkpoints):
        raise AssertionError("never")


class BadSim(_Base):
    name = "Bad-Sim"

    def __init__(self, epsilon):
        self.epsilon = epsilon

    def params(self):
        return {}

    def simulate(self, env, T, runs, rng, checkpoints):
        return 1 / 0


ALGORITHMS = [BadInit, BadSim]
'''


@pytest.fixture
def clean_plugins():
    import sys

    from boundcalc.algorithms import plugins as alg_plugins
    from boundcalc.bounds import plugins as bound_plugins

    def clean():
        bound_plugins.reset()
        alg_plugins.reset()
        for m in [m for m in sys.modules if m.startswith("boundcalc_example_plugin")]:
            del sys.modules[m]

    clean()
    yield
    clean()


@pytest.mark.parametrize("algo,what", [("Bad-Init", "its constructor raised RuntimeError: boom in init"),
                                       ("Bad-Sim", "its simulate raised ZeroDivisionError: division by zero")])
@pytest.mark.parametrize("cmd", [["simulate", "--T", "50", "--runs", "2"], ["audit", "--trials", "100"]],
                         ids=lambda c: c[0])
def test_plugin_errors_name_the_plugin(algo, what, cmd, tmp_path, clean_plugins):
    p = tmp_path / "bad_plugin.py"
    p.write_text(BAD_PLUGIN)
    r = _run([cmd[0], "--algo", algo, "--epsilon", "1", *cmd[1:], "--algorithms-file", str(p)])
    line = _one_line(r, str(p), repr(algo), what)
    assert "please report" not in line


def test_plugin_error_mutant_without_the_guard(tmp_path, clean_plugins, monkeypatch):
    from boundcalc import algorithms

    p = tmp_path / "bad_plugin.py"
    p.write_text(BAD_PLUGIN)
    monkeypatch.setattr(algorithms, "plugin_error", lambda alg, exc, what: None)  # mutant: exceptions pass as such
    r = _run(["simulate", "--algo", "Bad-Sim", "--epsilon", "1", "--T", "50", "--runs", "2", "--algorithms-file",
              str(p)])
    assert isinstance(r.exception, ZeroDivisionError)


def test_one_plugin_file_named_two_ways_is_loaded_once(tmp_path, clean_plugins, monkeypatch):
    """examples/my_plugin.py, ./examples/my_plugin.py and a link to it are one file: its module is imported once
    and its algorithm registered once (the second name was "already an algorithm of plugin ...")."""
    from boundcalc.algorithms import plugins as alg_plugins
    from boundcalc.bounds import plugins as bound_plugins

    monkeypatch.chdir(ROOT)
    link = tmp_path / "linked_plugin.py"
    os.symlink(os.path.join(ROOT, "examples", "my_plugin.py"), link)
    names = ["examples/my_plugin.py", "./examples/my_plugin.py", str(link)]
    args = ["simulate", "--algo", "Doe-UCB", "--epsilon", "1", "--T", "50", "--runs", "2", "--json"]
    for n in names:
        args += ["--algorithms-file", n, "--bounds-file", n]
    r = _run(args)
    assert r.exit_code == 0, r.output
    assert len(bound_plugins._MODULES) == 1 and len(alg_plugins._LOADED_FILES) == 1
    # mutant: the file keyed by the name as given (no path resolution)
    bound_plugins.reset()
    alg_plugins.reset()
    monkeypatch.setattr(alg_plugins, "load_algorithms_file", mutate(
        alg_plugins.load_algorithms_file, "key = os.path.realpath(path)", "key = path"))
    monkeypatch.setattr(bound_plugins, "import_module_file", mutate(
        bound_plugins.import_module_file, "key = os.path.realpath(path)", "key = path"))
    r = _run(args)
    assert r.exit_code == 2 and "already" in r.stderr


def test_one_class_entry_point_is_a_class_not_a_factory(clean_plugins, monkeypatch):
    """docs/plugins.md: an entry point may load to one class; it is registered, not called as a factory."""
    import importlib.metadata
    from importlib.metadata import EntryPoint

    from boundcalc.algorithms import plugins as alg_plugins

    monkeypatch.syspath_prepend(os.path.join(ROOT, "examples", "boundcalc_example_plugin"))
    eps = [EntryPoint("doe-one", "boundcalc_example_plugin.doe2027:DoeUCB", "boundcalc.algorithms")]
    monkeypatch.setattr(importlib.metadata, "entry_points",
                        lambda *, group=None, **kw: [e for e in eps if group is None or e.group == group])
    r = _run(["algorithms", "--json"])
    assert r.exit_code == 0, r.output
    (row,) = [a for a in json.loads(r.stdout)["algorithms"] if a["name"] == "Doe-UCB"]
    # mutant: the class taken for a factory (called with no budget: "failed to load")
    alg_plugins.reset()
    monkeypatch.setattr(alg_plugins, "load_entry_points", mutate(
        alg_plugins.load_entry_points, "lambda o: isinstance(o, type)", "lambda o: False"))
    r = _run(["algorithms", "--json"])
    assert r.exit_code == 2 and "failed to load" in r.stderr


# -- older commands: no RuntimeWarning at exit 0 ---------------------------------------------------------------------
def _runtime_warnings(args):
    import warnings

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        r = _run(args)
    return r, [w for w in seen if issubclass(w.category, RuntimeWarning)]


@pytest.mark.parametrize("args", [
    ["regret", "--setting", "finite", "--epsilon", "1e-320"],
    ["regret", "--setting", "finite", "--means", "1e-320,0", "--epsilon", "1"],
    ["regret", "--setting", "contextual", "--lambda0", "1e308", "--rho", "1"],
    ["budget", "--setting", "finite", "--means", "1e-320,0", "--max-overhead", "1", "--by", "bound"],
    ["budget", "--setting", "contextual", "--lambda0", "1e308", "--max-overhead", "1"],
    ["budget", "--setting", "finite", "--epsilon", "1e-320", "--min-T", "--max-overhead", "1"],
], ids=lambda a: " ".join(a[:1] + a[3:5]))
def test_extreme_inputs_no_runtime_warning(args):
    r, warned = _runtime_warnings(args)
    assert r.exit_code == 0, r.output
    assert not warned, [str(w.message) for w in warned]
    assert "must be" not in r.output  # ε = 1e-320 is not "rho must be a number > 0" (ε²/2 underflows)


def test_runtime_warning_mutant(monkeypatch):
    from boundcalc.bounds import report

    monkeypatch.setattr(report, "quiet_floats", lambda fn: fn)  # mutant: the instance's quantities evaluated loudly
    r, warned = _runtime_warnings(["regret", "--setting", "finite", "--means", "1e-320,0", "--epsilon", "1"])
    assert r.exit_code == 0 and warned


# -- --digits: a time limit with a one-line error; kl-UCB by Newton steps -------------------------------------------
def test_digits_time_limit_on_a_real_command(monkeypatch):
    from boundcalc.cli import common

    monkeypatch.setattr(common, "DIGITS_SECONDS", 0.2)
    r = _run(["kl-inf", "--support", "0,0.5,1", "--weights", "0.2,0.3,0.5", "--mu-star", "0.8", "--digits", "10000"])
    _one_line(r, "--digits", "10000")


def test_digits_time_limit_mechanism_and_mutant(monkeypatch):
    import time

    import typer

    from boundcalc.cli import common

    monkeypatch.setattr(common, "DIGITS_SECONDS", 0.05)

    def slow(digits=None):
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < 0.6:
            sum(range(1000))  # Python bytecode: the SIGALRM backstop interrupts it
        return "done"

    with pytest.raises(typer.Exit) as e:
        common.command(slow)(digits=50)
    assert e.value.exit_code == 2
    assert common.command(slow)() == "done"  # no --digits: no limit
    # mutant: the limit keyed on a misspelt parameter never applies
    wrapped = mutate(common.command, 'kwargs.get("digits")', 'kwargs.get("digit")')
    assert wrapped(slow)(digits=50) == "done"


def test_kl_ucb_mp_newton_matches_float_and_definition():
    """kl-UCB/LCB at 60 digits (Newton steps on ln q, then bisection) against the float index and the definition:
    kl(p, q*) = level to 50 digits."""
    import mpmath

    from boundcalc.info import kl_bernoulli_mp, kl_lcb, kl_lcb_mp, kl_ucb, kl_ucb_mp

    with mpmath.workdps(60):
        for p, lev in [(0.3, 1.0), (0.5, 1e-6), (0.01, 30.0), (0.9, 0.2)]:
            u, lo = kl_ucb_mp(mpmath.mpf(p), mpmath.mpf(lev)), kl_lcb_mp(mpmath.mpf(p), mpmath.mpf(lev))
            assert float(u) == pytest.approx(float(kl_ucb(p, lev)), rel=1e-9)
            assert float(lo) == pytest.approx(float(kl_lcb(p, lev)), rel=1e-9, abs=1e-300)
            for q in (u, lo):
                if 0 < q < 1:
                    assert abs(kl_bernoulli_mp(mpmath.mpf(p), q) - lev) < mpmath.mpf(10) ** -48 * max(1, lev)


# -- κ_l of the GLM instance: a guaranteed lower constant (rounded down) ------------------------------------------
def test_kappa_l_rounded_down_and_guaranteed(monkeypatch):
    """κ_l (4 significant digits) is at most the largest κ with the guaranteed A3 probability ≥ p_* (found here by
    an own bisection on a3_min_prob_sphere2, 80 steps) and within 1e-3 of it; the guaranteed bound holds at κ_l."""
    from boundcalc.verify import glm_instance as g

    K, p = 10, 0.5
    lo, hi = 0.0, 2.0
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if g.a3_min_prob_sphere2(mid / 2, K) >= p else (lo, mid)
    kl = g.kappa_l_sphere2.__wrapped__(K, p)
    assert kl <= lo and kl >= lo * (1 - 1e-3) and len(f"{kl:.10g}".replace(".", "").strip("0")) <= 4
    assert g.a3_min_prob_sphere2(kl / 2, K) >= p
    # mutant: rounded up (to the nearest 4 digits above): no longer guaranteed
    up = mutate(g.kappa_l_sphere2.__wrapped__, "math.floor(lo / 10.0 ** e)", "math.ceil(lo / 10.0 ** e)")
    bad = up(K, p)
    assert bad > lo and g.a3_min_prob_sphere2(bad / 2, K) < p


# -- the decision report's (ε, δ) at the user's --delta ---------------------------------------------------------------
def test_decision_report_uses_the_users_delta(tmp_path, monkeypatch):
    """`budget --by simulation --delta 1e-3 --report r.md`: the guarantee table's (ε, δ) rows are at δ = 0.001, and
    the simple row is min(ε, ρ + 2√(ρ ln(1/δ))) of the report's own ρ and ε (Bun–Steinke Prop. 1.3, by hand)."""
    import re

    from boundcalc.budget import measured
    from boundcalc.cli import budget_measured

    real, seen = measured.solve_measured, []

    def once(*a, **k):  # one search for both runs (the mutant changes only what is written)
        if not seen:
            seen.append(real(*a, **k))
        return seen[0]

    monkeypatch.setattr(measured, "solve_measured", once)
    # means 0.7, 0.5 at T = 300 (a budget is met; on 0.9, 0.5 at T = 100 the mean is not pinned down under the
    # unseen-tail floor, and a report without a recommended budget has no guarantee table)
    args = ["budget", "--setting", "finite", "--T", "300", "--means", "0.7,0.5", "--max-overhead", "3", "--algo",
            "DP-KLUCB", "--runs", "10", "--max-runs", "20", "--delta", "1e-3", "--report"]

    def rows(path):
        r = _run([*args, str(path)])
        assert r.exit_code == 0, r.output
        text = path.read_text()
        num = lambda label: float(re.search(re.escape(label) + r" \| ([0-9.e+-]+) \|", text).group(1))  # noqa: E731
        return text, num

    text, num = rows(tmp_path / "r.md")
    assert "(ε, δ) at δ = 0.001, tight" in text and "(ε, δ) at δ = 0.001, simple" in text and "1e-06" not in text
    rho, eps = num("ρ (zCDP)"), num("ε (pure DP)")
    simple = min(eps, rho + 2 * math.sqrt(rho * math.log(1e3)))
    assert num("(ε, δ) at δ = 0.001, simple") == pytest.approx(simple, rel=2e-3)  # 4 digits printed
    assert num("(ε, δ) at δ = 0.001, tight") <= simple * (1 + 1e-3)
    # mutant: the report written at its default δ = 1e-6 whatever --delta says
    monkeypatch.setattr(budget_measured, "run", mutate(budget_measured.run, "decision.write(plan, report, cmd, delta)",
                                                       "decision.write(plan, report, cmd)"))
    text2, _ = rows(tmp_path / "r2.md")
    assert "δ = 1e-06" in text2 and "δ = 0.001, tight" not in text2


# -- more fuzzing: errors that named no option or a wrong range ----------------------------------------------------
@pytest.mark.parametrize("args,flag,words", [
    (["lower", "--rho", "1", "--means", "0.5", "--alt-means", "0.4,0.5"], "--means", "at least 2"),
    (["lower", "--rho", "1", "--means", "0.5,0.4", "--alt-means", "0.4"], "--alt-means", "at least 2"),
    (["audit", "--algo", "DP-SE", "--means", "0.5", "--trials", "100"], "--means", "at least 2"),
    (["regret", "--setting", "finite", "--epsilon", "1", "--means", "0.5"], "--means", "at least 2"),
    (["audit", "--algo", "DP-SE", "--trials", "1e30"], "--trials", "[100, 1e+06]"),
    (["audit", "--algo", "DP-SE", "--level", "0.99999999999"], "--level", "1 − 1e-9"),
])
def test_errors_name_the_option_and_its_range(args, flag, words):
    _one_line(_run(args), flag, words)


@pytest.mark.parametrize("args,flag", [
    (["simulate", "--algo", "AdaC-GOPE", "--rho", "1", "--T", "100", "--runs", "2", "--theta", "1e308,1e308"],
     "--theta"),  # finite means, gaps beyond float: RuntimeWarning and NaN regret at exit 0
    (["simulate", "--algo", "DP-SE", "--epsilon", "1", "--T", "100", "--runs", "2", "--gaps", "2", "--K", "3"],
     "--gaps"),
    (["budget", "--setting", "finite", "--T", "100", "--means", "0.9,0.5", "--max-overhead", "3", "--algo",
      "DP-KLUCB", "--runs", "4", "--max-runs", "8", "--counterpart", "nope"], "--counterpart"),
])
def test_more_errors_name_their_option(args, flag):
    r, warned = _runtime_warnings(args)
    _one_line(r, flag)
    assert not warned


def test_simulate_save_not_written_when_a_later_step_fails(tmp_path, monkeypatch):
    from boundcalc.cli import common, simulate_output
    from boundcalc.errors import InputError

    def failing_draw(*a, **k):
        raise InputError("--plot", "a picture that can be drawn", "test")

    monkeypatch.setattr(simulate_output, "draw", failing_draw)
    out = tmp_path / "r.npz"
    args = ["simulate", "--algo", "DP-SE", "--epsilon", "1", "--T", "100", "--runs", "2", "--save", str(out),
            "--plot", str(tmp_path / "p.png")]
    _one_line(_run(args), "--plot")
    assert not out.exists()
    monkeypatch.setattr(common, "after_success", lambda write: write())  # mutant: written at once
    assert _run(args).exit_code == 2 and out.exists()


MARKUP_BOUND = ('[[bound]]\nid = "mk-x"\ntitle = "[/red] bad [bold]"\nsource = "[link=x]src"\nsetting = "finite"\n'
                'notion = "pure"\nkind = "upper-minimax"\nnonprivate = "sqrt(T)"\nprivacy_cost = "1/epsilon"\n'
                'assumptions = ["epsilon > 0"]\ncaveats = ["vacuous: [/x] oops"]\n')


@pytest.mark.parametrize("args", [["bounds", "show", "mk-x"],
                                  ["regret", "--setting", "finite", "--epsilon", "1", "--explain"]],
                         ids=lambda a: a[0])
def test_plugin_bound_text_with_markup_printed_as_written(args, tmp_path, clean_plugins):
    p = tmp_path / "b_mk.toml"
    p.write_text(MARKUP_BOUND)
    r = _run([*args, "--bounds-file", str(p)])
    assert r.exit_code == 0, r.output
    assert "vacuous: [/x] oops" in r.stdout and "[yellow]" not in r.stdout and "[bold cyan]" not in r.stdout


def test_multi_line_plugin_error_is_one_line(tmp_path, clean_plugins, monkeypatch):
    from boundcalc.cli import common

    p = tmp_path / "ml_plugin.py"
    p.write_text('raise RuntimeError("line1\\nline2")\n')
    args = ["simulate", "--algo", "UCB", "--T", "10", "--algorithms-file", str(p)]
    assert "line1 line2" in _one_line(_run(args), str(p))
    monkeypatch.setattr(common, "fail", mutate(common.fail, 'message = " ".join(str(message).splitlines())',
                                               "message = str(message)"))  # mutant: the text printed as it is
    r = _run(args)
    assert r.exit_code == 2 and len([ln for ln in r.stderr.splitlines() if ln.strip()]) == 2


# -- worksheet run --data: the file's format checked before any experiment ------------------------------------------
@pytest.mark.parametrize("name,content,words", [
    ("autoloan", "a,b\n1,2\n", "missing apply"), ("autoloan", None, "existing CSV file"),
    ("lastfm", None, "user_artists.dat"),
])
def test_worksheet_data_checked_before_any_experiment(name, content, words, tmp_path, monkeypatch):
    from boundcalc.experiments import session

    monkeypatch.setattr(session.Session, "run_all", lambda self: (_ for _ in ()).throw(_Reached()))
    if content is not None:
        path = tmp_path / "bad.csv"
        path.write_text(content)
    else:
        path = tmp_path / "dir"
        path.mkdir()
    out = tmp_path / "out"
    r = _run(["worksheet", "run", "002" if name == "autoloan" else "004", "--data", f"{name}={path}", "--out",
              str(out)])
    _one_line(r, f"--data {name}", words)
    assert not out.exists() or not any(out.iterdir())


def test_worksheet_data_mutant_reaches_the_experiments(tmp_path, monkeypatch):
    from boundcalc.data import autoloan
    from boundcalc.experiments import session

    monkeypatch.setattr(session.Session, "run_all", lambda self: (_ for _ in ()).throw(_Reached()))
    monkeypatch.setattr(autoloan, "check_autoloan", lambda path: None)  # mutant: only the path's existence
    path = tmp_path / "bad.csv"
    path.write_text("a,b\n1,2\n")
    with pytest.raises(_Reached):
        _run(["worksheet", "run", "002", "--data", f"autoloan={path}", "--out", str(tmp_path / "out")])
