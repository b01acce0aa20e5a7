"""Issue 23 §5, start-up: WHICH modules the console's `simulate`, `regret` and `--help` import (never how long they
take: the speed goal lives in benchmarks/bench_regret_cli.py), and that the three things that keep them small change
no answer:

* the algorithm registry names each class's module (``boundcalc.algorithms.Registered``): a command that uses one
  algorithm imports its module only;
* the console runs a root app with only the named command's module (``cli.app.entry_command`` / ``one_command``): its
  help and errors are the full app's;
* plain option values are converted without pydantic (``cli.coerce``): every value gives typer's own result, and a
  value that is not plain goes to typer's converter (same error text).
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
import typer
import typer.testing

from boundcalc import algorithms as registry
from boundcalc.cli import app as cli_app
from boundcalc.cli import coerce

TESTS = Path(__file__).resolve().parents[1]
NEVER = ("pydantic", "scipy.stats", "sympy", "matplotlib", "dask", "flint")

# One fresh interpreter, as the console runs: simulate (2 runs), then regret, then --help; after each, the boundcalc
# modules and the heavy packages in sys.modules. Then the mutants, in the same process (nothing else to pay for):
# the registry's lookup listing a whole setting (the old lookup went through all_algorithms), the entry point building
# the whole app, and a converter that hands every value to typer (pydantic).
CHILD = r"""
import json, sys
sys.path.insert(0, TESTS)
from boundcalc.cli.app import main

def run(*argv):
    try:
        main(list(argv))
    except SystemExit as e:
        assert not e.code, (argv, e.code)
    return sorted(m for m in sys.modules if m.startswith("boundcalc") or m.split(".")[0] in HEAVY or m in HEAVY)

out = {}
out["simulate"] = run("simulate", "--algo", "UCB", "--means", "0.9,0.5", "--T", "200", "--runs", "2", "--json")
out["regret"] = run("regret", "--setting", "linear", "--rho", "0.1", "--T", "1e6", "--json")
out["help"] = run("--help")

from mutation import mutate
from boundcalc import algorithms as R
from boundcalc.cli import app as A, coerce as C
R.lookup = mutate(R.lookup, "reg = _setting_registry(s)", "reg = dict(_setting_registry(s))")
R.lookup("UCB")
out["mutant_lookup"] = sorted(m for m in sys.modules if m.startswith("boundcalc.algorithms."))
out["mutant_entry"] = "boundcalc.cli.budget_cmd" in sys.modules  # --help built the whole app: every command module
C.plain = mutate(C.plain, 'if kind == "str":', 'if False:')  # a str value handed to typer
A._ONE.clear(); A._COMMAND.clear()
run("simulate", "--algo", "UCB", "--means", "0.9,0.5", "--T", "200", "--runs", "2", "--json")
out["mutant_plain"] = "pydantic" in sys.modules
print("RESULT " + json.dumps(out))
"""


@pytest.fixture(scope="module")
def child():
    code = f"TESTS = {str(TESTS)!r}\nHEAVY = {NEVER!r}\n" + CHILD
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    line = [ln for ln in r.stdout.splitlines() if ln.startswith("RESULT ")][-1]
    import json

    return json.loads(line[len("RESULT "):])


def _algorithm_modules(mods):
    """The modules of registered built-in classes among ``mods`` (what the registry's entries name)."""
    named = {f"{reg.package}.{v.rpartition('.')[0]}"
             for reg in (registry._setting_registry(s) for s in registry.SETTINGS) for v in reg._specs.values()}
    return sorted(set(mods) & named)


def test_simulate_imports_one_algorithm_module_and_no_heavy_package(child):
    mods = child["simulate"]
    assert _algorithm_modules(mods) == ["boundcalc.algorithms.finite.nonprivate"]
    assert not [m for m in mods if m.split(".")[0] in NEVER or m in NEVER], mods
    # the console ran simulate's own command module, not the others
    assert "boundcalc.cli.simulate_cmd" in mods and "boundcalc.cli.budget_cmd" not in mods
    assert "boundcalc.figures" not in mods and not [m for m in mods if m.startswith("boundcalc.verify")]


def test_regret_and_help_import_no_algorithm_module_nor_heavy_package(child):
    for key in ("regret", "help"):
        new = sorted(set(child[key]) - set(child["simulate"]))
        assert not [m for m in new if m.split(".")[0] in NEVER or m in NEVER], (key, new)
        assert _algorithm_modules(child[key]) == ["boundcalc.algorithms.finite.nonprivate"], key  # simulate's only
    assert "boundcalc.cli.bounds_cmd" in child["regret"] and "boundcalc.cli.budget_cmd" not in child["regret"]


def test_mutants_are_seen(child):
    # a lookup that lists its setting imports every finite algorithm's module
    assert "boundcalc.algorithms.finite.lazy_dp_ts" in child["mutant_lookup"]
    assert len(_algorithm_modules(child["mutant_lookup"])) >= 5
    # the whole app (what --help builds, and what entry_command avoided for simulate and regret) has every module
    assert child["mutant_entry"] is True
    # a converter that hands plain values to typer imports pydantic
    assert child["mutant_plain"] is True


# -- the registry ----------------------------------------------------------------------------------------------------
def test_registered_names_are_the_classes_names_and_lookup_finds_each():
    """Every entry's key is its class's ``name`` (Registered refuses a mismatch); ``lookup`` by any spelling gives
    the class; the listing keeps the order of the entries."""
    for s in registry.SETTINGS:
        reg = registry._setting_registry(s)
        names = list(reg)
        assert list(registry.builtin_by_setting()[s]) == names
        for n in names:
            cls = reg[n]
            assert cls.name == n and cls.setting == s
            assert registry.lookup(n.lower().replace("-", "_")) is cls
    bad = registry.Registered("boundcalc.algorithms.finite", {"Not-UCB": "nonprivate.UCB"})
    with pytest.raises(ImportError, match="registered as 'Not-UCB'"):
        bad["Not-UCB"]


def test_setting_packages_export_their_classes_lazily():
    from boundcalc.algorithms import finite, glm
    from boundcalc.algorithms.finite.dp_batched import DPIMED, batch_size
    from boundcalc.algorithms.glm.ldp import l2_ball_radius

    assert finite.DPIMED is DPIMED and finite.batch_size is batch_size and glm.l2_ball_radius is l2_ball_radius
    with pytest.raises(AttributeError):
        finite.NoSuchThing  # noqa: B018


# -- the console's one-command app --------------------------------------------------------------------------------
def test_command_table_matches_the_registrations():
    for module in cli_app.COMMAND_MODULES:
        a = typer.Typer()
        __import__(f"boundcalc.cli.{module}", fromlist=["register"]).register(a)
        names = {c.name or c.callback.__name__ for c in a.registered_commands} | {g.name for g in a.registered_groups}
        assert names == {n for n, m in cli_app.COMMANDS.items() if m == module}, module


@pytest.mark.parametrize("args", [["simulate", "--help"], ["regret", "--T", "0", "--setting", "finite"],
                                  ["simulate", "--algo", "UCB", "--runs", "2", "--T", "50", "--digits", "x"],
                                  ["regret", "--setting", "linear", "--rho", "0.1", "--epsilon", "1,2", "--json"]])
def test_one_command_app_says_what_the_full_app_says(args, monkeypatch):
    def invoke(cmd):
        monkeypatch.setattr(typer.testing, "_get_command", lambda app: cmd)
        r = typer.testing.CliRunner().invoke(cli_app.app, args)
        return r.exit_code, r.stdout, r.stderr

    module = cli_app.COMMANDS[args[0]]
    assert invoke(cli_app.one_command(module)) == invoke(cli_app.command())


# -- the converter -------------------------------------------------------------------------------------------------
VALUES = ["12", "007", "+5", "-3", " 4", "1_000", "1.0", "1e3", "99999999999999999999999", "1e6", "1.5", ".5", "5.",
          "-0", "inf", "nan", "-inf", "1_0", " 2", "0x1", "1e400", "1E-3", "+1", "", "abc", "\u0663", "1e", "e5", ".",
          "-", "1.2.3", "0.1,1", "\udcff", "1 ", 3, 2.5, True, None]


def _typer_value(kind, value, parser=None):
    """typer's own conversion (its pydantic adapter), or the exception type it raises."""
    from typer._adapters import build_adapter
    from typer.models import OptionInfo

    ann = {"str": str, "bool": bool, "int": int, "float": float, "list[str]": list[str], "parser": float}[kind]
    try:
        return build_adapter(ann, OptionInfo(parser=parser)).validate_python(value)
    except Exception as exc:  # noqa: BLE001
        return type(exc)


@pytest.mark.parametrize("kind", ["str", "bool", "int", "float", "parser"])
def test_plain_values_convert_as_typer_converts_them(kind):
    from boundcalc.cli.options import single_budget

    parser = single_budget if kind == "parser" else None

    def check(plain):
        taken = 0
        for v in VALUES:
            got = plain(kind, v, parser)
            if got is coerce._MISS:
                continue
            want = _typer_value(kind, v, parser)
            assert type(got) is type(want) and (got == want or (math.isnan(got) and math.isnan(want))), (kind, v)
            taken += 1
        return taken

    assert check(coerce.plain) >= {"str": 3, "bool": 1, "int": 4, "float": 11, "parser": 14}[kind]
    if kind == "int":  # mutant: any str read by int() (" 4" and "1_000" agree, "1.0" is 1 for typer, an error here)
        from mutation import mutate

        bad = mutate(coerce.plain, "if t is str and _INT.match(value)", "if t is str and value.strip()")
        with pytest.raises((AssertionError, ValueError)):
            check(bad)


def test_list_values_and_errors_are_typers():
    assert coerce.plain("list[str]", ("a", "b")) == ["a", "b"] == _typer_value("list[str]", ("a", "b"))
    assert coerce.plain("list[str]", ("a", 1)) is coerce._MISS



def test_a_value_that_is_not_plain_gets_typers_message(capsys):
    """"1.5" for the int option --digits goes to typer's converter: its message, as one line, exit 2."""
    with pytest.raises(SystemExit) as e:
        cli_app.main(["kl", "0.5", "0.3", "--digits", "1.5"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err == ("boundcalc: error: Invalid value for '--digits': Input should be a valid integer, unable to parse "
                   "string as an integer (see 'boundcalc kl --help')")
