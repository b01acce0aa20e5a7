"""CLI tests for `boundcalc episodes`."""

from __future__ import annotations

import json
import math

import pytest

from clirun import app, runner


def run(*args):
    return runner.invoke(app, ["episodes", *args])


def test_table_and_count():
    r = run("--algo", "AdaC-GOPE", "--rho", "0.1", "--d", "3", "--K", "10", "--T", "1e6")
    assert r.exit_code == 0, r.output
    assert "episodes up to T" in r.output and "6" in r.output


def test_json_one_object():
    r = run("--algo", "dp-klucb", "--epsilon", "0.5", "--T", "1e6", "--json")
    assert r.exit_code == 0, r.output
    lines = [x for x in r.stdout.splitlines() if x.strip()]
    assert len(lines) == 1
    obj = json.loads(lines[0])
    assert obj["command"] == "episodes"
    eps = obj["episodes"]
    assert obj["value"] == len(eps) == 1 + math.ceil(math.log2(1e6))  # n_1 = 1, α = 2: cumulative 2^{m-1}
    assert sum(e["length"] for e in eps) == 10**6 and eps[-1]["t_end"] == 10**6
    assert all(e["noise_scale"] == 2.0 for e in eps)
    assert obj["per_arm"] is True


def test_huge_horizon():
    r = run("--algo", "adar-oful", "--alpha", "2", "--rdp-epsilon", "1", "--T", "1e15", "--json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert obj["episodes"][-1]["t_end"] == 10**15
    assert obj["value"] < 1000


@pytest.mark.parametrize(
    "args",
    [
        ("--algo", "adac-ucb", "--rho", "1", "--T", "0"),
        ("--algo", "adac-ucb", "--rho", "-1"),
        ("--algo", "nope", "--epsilon", "1"),
        ("--algo", "adac-ucb"),
        ("--algo", "adar-ucb", "--alpha", "0.5", "--rdp-epsilon", "1"),
        ("--algo", "adac-ucb", "--rho", "1", "--plot", "/nonexistent-dir/s.png"),  # was a FileNotFoundError traceback
        ("--algo", "adac-ucb", "--rho", "1", "--plot", "s.txtq"),  # was a matplotlib ValueError traceback
    ],
)
def test_bad_input_one_line(args):
    r = run(*args)
    assert r.exit_code == 2
    err = r.stderr if hasattr(r, "stderr") else r.output
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("boundcalc: error:"), err


def test_unknown_algo_lists_names():
    r = run("--algo", "UCB", "--epsilon", "1")
    assert r.exit_code == 2
    for n in ("adac-gope", "dp-imed", "adar-oful"):
        assert n in r.stderr


def test_plot(tmp_path):
    f = tmp_path / "s.png"
    r = run("--algo", "adac-ucb", "--rho", "0.5", "--T", "1e5", "--plot", str(f))
    assert r.exit_code == 0, r.output
    assert f.exists() and f.stat().st_size > 0


# -- every option reaches the schedule (issue 7 §1): CLI against a direct library call with the same value -----
import typer.main  # noqa: E402

from boundcalc.algorithms import episodes as phased  # noqa: E402
from boundcalc.cli import episodes_cmd  # noqa: E402

# The table the episodes command kept before the cards (main 78ee0a9: ALGO_NAMES, USES, schedules.ALGORITHMS's
# notions), written out here: the cards' episode_schedule must give the same algorithms, options and budgets.
OLD_USES = {
    "dp-klucb": ("--epsilon", "--n1", "--batch-ratio"),
    "dp-imed": ("--epsilon", "--n1", "--batch-ratio"),
    "adap-klucb": ("--epsilon",),
    "dp-se": ("--epsilon", "--K", "--beta"),
    "adac-ucb": ("--rho",),
    "adar-ucb": ("--alpha", "--rdp-epsilon"),
    "adac-gope": ("--rho", "--d", "--K", "--confidence"),
    "adar-gope": ("--alpha", "--rdp-epsilon", "--d", "--K", "--confidence"),
    "adac-oful": ("--rho", "--d", "--lambda", "--C", "--lambda0"),
    "adar-oful": ("--alpha", "--rdp-epsilon", "--d", "--lambda", "--C", "--lambda0"),
}
OLD_NOTIONS = {"adac-gope": "zcdp", "adar-gope": "rdp", "dp-klucb": "pure", "dp-imed": "pure", "adap-klucb": "pure",
               "dp-se": "pure", "adac-ucb": "zcdp", "adar-ucb": "rdp", "adac-oful": "zcdp", "adar-oful": "rdp"}

BUDGETS = {"pure": (["--epsilon", "0.7"], dict(epsilon=0.7)), "zcdp": (["--rho", "0.3"], dict(rho=0.3)),
           "rdp": (["--alpha", "3", "--rdp-epsilon", "0.4"], dict(alpha=3.0, rdp_epsilon=0.4))}

# (algo, option, value, library keyword and value): the value differs from the default so that dropping the
# option on its way changes the schedule (checked in the test)
OPTION_CASES = [
    ("adac-gope", "--T", "54321", "T", 54321),
    ("dp-klucb", "--epsilon", "0.05", "epsilon", 0.05),
    ("adac-ucb", "--rho", "0.01", "rho", 0.01),
    ("adar-ucb", "--alpha", "9", "alpha", 9.0),
    ("adar-oful", "--rdp-epsilon", "0.01", "rdp_epsilon", 0.01),
    ("adac-gope", "--d", "4", "d", 4),
    ("adac-oful", "--d", "3", "d", 3),
    ("adar-gope", "--K", "1000", "K", 1000),
    ("dp-se", "--K", "3", "K", 3),
    ("adac-gope", "--confidence", "0.2", "delta", 0.2),
    ("dp-se", "--beta", "0.3", "beta", 0.3),
    ("dp-imed", "--n1", "7", "n1", 7),
    ("dp-klucb", "--batch-ratio", "3.5", "ratio", 3.5),
    ("adac-oful", "--lambda", "40", "lam", 40.0),
    ("adar-oful", "--C", "0.2", "C", 0.2),
    ("adac-oful", "--lambda0", "0.02", "lam0", 0.02),
]


def _cli_rows(args):
    r = run(*args, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


@pytest.mark.parametrize("algo,opt,val,kw,libval", OPTION_CASES)
def test_option_matches_library_call(algo, opt, val, kw, libval):
    bargs, bkw = BUDGETS[OLD_NOTIONS[algo]]
    T = 10**5
    lib_kw = dict(bkw)
    lib_T = T
    if kw == "T":
        lib_T = libval
    else:
        lib_kw[kw] = libval
    if opt in ("--epsilon", "--rho", "--alpha", "--rdp-epsilon"):
        bargs = [a for i, a in enumerate(bargs) if a != opt and (i == 0 or bargs[i - 1] != opt)]
    obj = _cli_rows(["--algo", algo, "--T", str(T), *bargs, opt, val])
    lib = phased.build(algo, lib_T, **lib_kw)
    assert obj["episodes"] == lib.rows()
    assert obj["value"] == lib.count
    # the option matters: the default schedule differs, so a dropped option fails this test
    default = phased.build(algo, T, **bkw)
    assert default.rows() != lib.rows() or default.paper_count != lib.paper_count
    assert obj["paper_count"] == pytest.approx(lib.paper_count, rel=1e-12)
    assert not any(n.startswith(f"{opt} has no effect") for n in obj["notes"])


def test_every_option_is_covered_by_a_case():
    cmd = typer.main.get_command(app).commands["episodes"]
    opts = {p.opts[0] for p in cmd.params if not p.hidden}  # hidden: deprecated aliases (tests/algorithms/test_vocabulary.py)
    covered = {c[1] for c in OPTION_CASES} | {"--algo", "--rows", "--json", "--plot"}
    assert opts == covered, opts ^ covered


def test_rows_limits_the_table():
    r = run("--algo", "adac-oful", "--rho", "1", "--d", "20", "--T", "1e6", "--rows", "6")
    assert r.exit_code == 0, r.output
    body = [ln for ln in r.stdout.splitlines() if ln.startswith("│")]
    assert len(body) == 7  # 3 first + "…" + 3 last
    assert sum("…" in ln for ln in body) == 1


@pytest.mark.parametrize("algo", sorted(OLD_USES))
def test_unused_options_are_noted_and_truly_unused(algo):
    """Every option the algorithm does not read gets a note, and changing it leaves the schedule unchanged."""
    bargs, _ = BUDGETS[OLD_NOTIONS[algo]]
    other = {"--epsilon": "0.9", "--rho": "0.9", "--alpha": "5", "--rdp-epsilon": "0.9", "--d": "5", "--K": "4",
             "--confidence": "0.3", "--beta": "0.4", "--n1": "3", "--batch-ratio": "4", "--lambda": "7", "--C": "3",
             "--lambda0": "0.5"}
    base = _cli_rows(["--algo", algo, "--T", "1e5", *bargs])
    used = episodes_cmd.uses(phased.lookup(algo))
    unused = [o for o in episodes_cmd.SCHEDULE_OPTIONS if o not in used and o not in bargs]
    assert unused
    for o in unused:
        obj = _cli_rows(["--algo", algo, "--T", "1e5", *bargs, o, other[o]])
        assert f"{o} has no effect on {algo}" in obj["notes"], (o, obj["notes"])
        assert obj["episodes"] == base["episodes"], o
    for o in used:  # used options: no note, and a different value changes the schedule
        if o in bargs:
            continue
        obj = _cli_rows(["--algo", algo, "--T", "1e5", *bargs, o, other[o]])
        assert not any("no effect" in n for n in obj["notes"]), (o, obj["notes"])
        assert obj["episodes"] != base["episodes"] or obj["paper_count"] != base["paper_count"], o


@pytest.mark.parametrize("opt,val", [("--lambda", "nan"), ("--C", "inf"), ("--confidence", "1"), ("--beta", "-1"),
                                     ("--batch-ratio", "1"), ("--lambda0", "0"), ("--n1", "0"), ("--d", "2.5"),
                                     ("--K", "nan"), ("--epsilon", "nan"), ("--alpha", "1")])
def test_unused_option_is_still_validated(opt, val):
    r = run("--algo", "adac-ucb", "--rho", "1", opt, val)  # adac-ucb reads none of these
    assert r.exit_code == 2, r.output
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and opt in lines[0], r.stderr


def test_tiny_delta_is_finite_not_a_traceback():
    # was: ValueError math domain error (log(8K/δ) overflowed to inf)
    for algo, b in (("adar-gope", ["--alpha", "2", "--rdp-epsilon", "1"]), ("adac-gope", ["--rho", "1"])):
        obj = _cli_rows(["--algo", algo, *b, "--delta", "1e-320", "--T", "1e6"])
        assert obj["episodes"][-1]["t_end"] == 10**6
        assert math.isfinite(obj["paper_count"]) and obj["paper_count"] >= 1
