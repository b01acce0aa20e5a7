"""Output a person can read (issue 17 §6) and budget lists (§5): each check is run on the fixed renderer and on a
deliberately broken copy of it (a mutant, the old behaviour), which the check must reject."""

from __future__ import annotations

import json
import math
import re

import pytest

from clirun import app, runner


def _run(args, env=None, width=None):
    """Invoke the CLI; ``width``: render as in a terminal of that many columns (common.console's width)."""
    if width is None:
        r = runner.invoke(app, args, env=env)
    else:
        from rich.console import Console

        from boundcalc.cli import common

        real = common.console

        def fixed(stderr=False):
            c = real(stderr)
            return Console(stderr=stderr, highlight=False, soft_wrap=False, width=width, file=c.file)

        common.console = fixed
        try:
            r = runner.invoke(app, args, env=env)
        finally:
            common.console = real
    assert r.exit_code == 0, (r.output, r.stderr)
    return r


# -- boundcalc --version ------------------------------------------------------------------------------------------
def test_version_prints_the_installed_version(monkeypatch):
    from importlib import metadata

    import boundcalc
    from boundcalc.cli import app as app_mod

    r = _run(["--version"])
    try:
        want = metadata.version("boundcalc")
    except metadata.PackageNotFoundError:
        want = boundcalc.__version__
    assert r.stdout.strip() == f"boundcalc {want}"

    def missing(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)  # a source tree that is not installed
    assert app_mod.version_text() == f"boundcalc {boundcalc.__version__}"


# -- --help: rich markup must not eat brackets ---------------------------------------------------------------------------
def _help_texts():
    import typer.main

    root = typer.main.get_command(app)

    def walk(c, name=""):
        yield name, c
        for k, sub in (getattr(c, "commands", None) or {}).items():
            yield from walk(sub, (name + " " + k).strip())

    for name, c in walk(root):
        for t in [c.help or ""] + [getattr(p, "help", "") or "" for p in c.params]:
            yield name, t


def _unescaped_tags(texts):
    """Rich markup tags (rich.markup.RE_TAGS) not preceded by a backslash: rich would swallow them as styles."""
    from rich.markup import RE_TAGS

    bad = []
    for name, t in texts:
        for m in RE_TAGS.finditer(t):
            if not m.group(2):  # group 2: the escaping backslashes
                bad.append((name, m.group(0)))
    return bad


def test_no_help_text_has_a_bracket_rich_would_eat():
    assert _unescaped_tags(_help_texts()) == []
    r = _run(["simulate", "--help"], env={"COLUMNS": "240"})  # typer's help reads COLUMNS
    assert "'boundcalc[dask]'" in r.stdout and "[tcp://]HOST:PORT" in r.stdout


def test_mutant_unescaped_help_is_rejected():
    old = ("simulate", "Dask needs pip install 'boundcalc[dask]'.")  # the help text before the fix
    assert _unescaped_tags([old]) == [("simulate", "[dask]")]


# -- verify: a summary by default ----------------------------------------------------------------------------------------
def _fake_verdicts(n_per_word=6):
    from boundcalc.verify.claims.registry import PAPERS, Verdict

    words = ("holds", "no counterexample", "statement violated", "typo", "not checkable numerically")
    out = []
    for i in range(n_per_word):
        for j, w in enumerate(words):
            out.append(Verdict(claim_id=f"c{i}-{j}", paper=PAPERS[(i + j) % len(PAPERS)], item=f"item {i}.{j}",
                               statement="s", verdict=w, measured="evidence " * 40 + f"#{i}.{j}",
                               method="proof" if w == "holds" else "grid", held=w in ("holds", "no counterexample")))
    return out


@pytest.fixture
def fake_claims(monkeypatch):
    from boundcalc.verify import claims as cl

    verdicts = {v.claim_id: v for v in _fake_verdicts()}
    monkeypatch.setattr(cl, "select", lambda paper=None, claim=None: list(verdicts))
    monkeypatch.setattr(cl, "evaluate", lambda cid, box=None, method=None: verdicts[cid])
    return verdicts


def _check_summary(out: str, verdicts: dict):
    """Counts per paper and verdict equal those of the verdicts; every non-holding claim is named, no holding one;
    no evidence text; short."""
    from collections import Counter

    lines = out.splitlines()
    assert len(lines) < 60, len(lines)
    assert "evidence evidence" not in out
    for v in verdicts.values():
        named = re.search(rf"\b{re.escape(v.claim_id)}\b", out) is not None
        assert named == (v.verdict not in ("holds", "no counterexample")), v.claim_id
    counts = Counter(v.verdict for v in verdicts.values())
    for w, k in counts.items():
        row = next(ln for ln in lines if ln.startswith("│ " + w))
        assert row.rstrip(" │").split()[-1] == str(k), (w, row)  # the "all" column


def test_verify_prints_a_summary_and_details_on_request(fake_claims):
    out = _run(["verify"], width=100).stdout
    _check_summary(out, fake_claims)
    details = _run(["verify", "--details"], width=100).stdout
    assert all(v.claim_id in details for v in fake_claims.values())
    obj = json.loads(_run(["verify", "--json"]).stdout)  # JSON unchanged: every claim with its evidence
    assert [c["claim_id"] for c in obj["claims"]] == list(fake_claims)
    assert obj["value"] == sum(v.held for v in fake_claims.values())


def test_mutant_verify_printing_every_claim_is_rejected(fake_claims):
    out = _run(["verify", "--details"], width=100).stdout  # the old default
    with pytest.raises(AssertionError):
        _check_summary(out, fake_claims)


# -- budget: numbers whole, caveats readable, every T --------------------------------------------------------------
_PLANS: dict = {}  # repr of a budget.solve call -> its plan (per process)


@pytest.fixture(autouse=True)
def _one_search_per_plan(monkeypatch):
    """The budget tests here check how a plan is rendered (the text at a width, the JSON's null at the range's edge)
    and their mutants break the renderer only: ``budget.solve`` (pure, deterministic: the same arguments give the same
    plan) runs once per distinct call in this process and each command renders a fresh copy of its plan. The plans'
    numbers are checked against direct library calls in tests/cli/test_cli_budget.py, not here."""
    import copy

    import boundcalc.budget as budget

    real = budget.solve

    def solve(*a, **k):
        key = repr((a, sorted(k.items())))
        if " at 0x" in key:  # an argument without a value repr: not shared
            return real(*a, **k)
        if key not in _PLANS:
            _PLANS[key] = real(*a, **k)
        return copy.deepcopy(_PLANS[key])

    monkeypatch.setattr(budget, "solve", solve)


APPROX = ["budget", "--setting", "linear", "--T", "1e6", "--max-overhead", "0.1", "--notion", "approx", "--all"]  # every row


def _check_budget_text(out: str, rows: list[dict]):
    """Every bound's user budget printed whole (6 significant digits agree with the JSON value), no "…", and its
    caveat tags on one line (not one word per line)."""
    assert "…" not in out
    flat = " ".join(out.split())
    header = next((i for i, ln in enumerate(out.splitlines()) if "id / algorithm" in ln and "caveats" in ln), None)
    for r in rows:
        if r["status"] != "met":
            continue
        nums = [float(x) for x in re.findall(r"(?<![\w.])\d+\.\d+(?:e[+-]\d+)?(?![\w.])", out)]
        assert any(math.isclose(x, r["user_budget"], rel_tol=5e-5) for x in nums), (r["id"], r["user_budget"])
        tags = r["tags"] + ([] if r["rigorous"] else ["indicative"])
        if header is None:  # one block per bound: its caveats on one line
            assert any(", ".join(tags) in ln for ln in out.splitlines()), (r["id"], tags)
    if header is not None:  # a table: its caveats column is at least 20 characters wide (not one word per line)
        lines = out.splitlines()
        start = lines[header].index("caveats")
        assert max(len(ln.rstrip()) for ln in lines[header:header + 40]) - start >= 20, lines[header]
    assert flat


def _budget_rows(args):
    obj = json.loads(_run([*args, "--json"]).stdout)
    return obj, obj["budgets"]


def test_budget_approx_prints_whole_numbers_and_readable_caveats_at_100_columns():
    _, rows = _budget_rows(APPROX)
    assert rows
    for cols in (100, 140):
        _check_budget_text(_run(APPROX, width=cols).stdout, rows)


def test_mutant_budget_table_squeezed_into_100_columns_is_rejected(monkeypatch):
    from boundcalc.cli import budget_cmd

    _, rows = _budget_rows(APPROX)
    monkeypatch.setattr(budget_cmd, "_fits", lambda con, table: True)  # the old renderer: the table, whatever width
    monkeypatch.setattr(budget_cmd.common, "fit_columns", lambda con, table, drop, floors=None: [])  # every column
    with pytest.raises(AssertionError):
        _check_budget_text(_run(APPROX, width=100).stdout, rows)


def test_budget_min_T_at_100_columns_prints_whole_numbers():
    args = ["budget", "--setting", "linear", "--min-T", "--rho", "0.1", "--max-overhead", "0.1"]
    obj = json.loads(_run([*args, "--json"]).stdout)
    rows = [r for r in obj["horizons"] if r["informative_status"] == r["overhead_status"] == "met"]
    assert rows
    for width in (100, 140):
        out = _run(args, width=width).stdout
        assert "…" not in out
        for r in rows:  # whole integers (6 digits at most here, so fmt prints every digit)
            for key in ("T_informative", "T_overhead"):
                assert re.search(rf"(?<![\d.]){r[key]}(?![\d.])", out), (width, r["id"], key)


LIST_T = ["budget", "--setting", "linear", "--T", "1e6,1e7", "--max-overhead", "0.1"]


def _check_every_T(out: str, horizons: list[dict]):
    for h in horizons:
        T = f"{h['T']:g}"
        assert re.search(rf"— T = {re.escape(T)}\b", out), T  # the horizon's own table
        rec = re.search(rf"Recommendation at T = {re.escape(T)}: ρ = ([0-9.e+-]+)", out)
        assert rec and math.isclose(float(rec.group(1)), h["value"], rel_tol=5e-5), (T, rec)


def test_budget_with_several_horizons_shows_every_T():
    obj = json.loads(_run([*LIST_T, "--json"]).stdout)
    assert len(obj["horizons"]) == 2 and obj["horizons"][0]["value"] != obj["horizons"][1]["value"]
    _check_every_T(_run(LIST_T).stdout, obj["horizons"])


def test_mutant_budget_rendering_the_largest_T_only_is_rejected(monkeypatch):
    from boundcalc.cli import budget_cmd

    obj = json.loads(_run([*LIST_T, "--json"]).stdout)
    real = budget_cmd._render
    monkeypatch.setattr(budget_cmd, "_render", lambda plans, *a, **k: real(plans[-1:], *a, **k))
    with pytest.raises(AssertionError):
        _check_every_T(_run(LIST_T).stdout, obj["horizons"])


RATIO = ["budget", "--setting", "finite", "--T", "1e6", "--max-ratio-to-lower", "2"]


def _check_no_edge_numbers(out: str):
    """No number at the solver's search-range edge (1e-30 … 1e30) or beyond is printed as an answer."""
    said = re.sub(r"[^;\n]*edge[^;\n]*", "", out)  # where the text names the range's edge as such
    for tok in re.findall(r"\d+(?:\.\d+)?e[+-]\d+", said):
        assert 1e-25 < float(tok) < 1e25, tok
    assert "any" in out


def test_budget_met_at_the_range_edge_prints_no_fake_number():
    obj, rows = _budget_rows(RATIO)
    edge = [r for r in rows if r["status"] == "any budget"]
    assert edge and all(r["user_budget"] <= 1e-29 for r in edge)  # the library's answer is the range's edge
    _check_no_edge_numbers(_run(RATIO).stdout)


def test_mutant_budget_printing_the_edge_is_rejected(monkeypatch):
    from boundcalc.cli import budget_cmd

    real = budget_cmd._row_cells

    def old(r, sym):
        c = real(r, sym)
        if r.status == "any budget":
            c.update(user=budget_cmd.common.fmt(r.user_budget, 5),
                     overhead=f"{100 * r.overhead_at_budget:.3g}%")
        return c

    monkeypatch.setattr(budget_cmd, "_row_cells", old)
    with pytest.raises(AssertionError):
        _check_no_edge_numbers(_run(RATIO).stdout)


EDGE = ["budget", "--setting", "linear", "--T", "1e6", "--max-regret", "1e300"]  # met at every ρ searched


def _check_edge_json(obj: dict):
    """Where the recommendation is met at the search range's edge, the JSON has no number as the answer: value is
    null, value_status says "any budget" and value_note why; each horizon likewise. The edge itself (the solver's
    range, read from the library, not from the output) is the number that must not appear as the answer."""
    from boundcalc.budget.solve import BUDGET_RANGE

    assert obj["value_status"] == "any budget" and obj["value_id"]
    assert obj["value"] is None, obj["value"]
    assert "edge" in obj["value_note"] and "null" in obj["value_note"]
    for h in obj["horizons"]:
        assert h["value_status"] == "any budget" and h["value"] is None
    row = next(r for r in obj["budgets"] if r["id"] == obj["value_id"])
    assert row["status"] == "any budget" and row["user_budget"] <= BUDGET_RANGE[0] * 1.01


def test_budget_json_value_is_null_at_the_range_edge():
    obj = json.loads(_run([*EDGE, "--json"]).stdout)
    _check_edge_json(obj)
    out = _run(EDGE).stdout
    said = re.sub(r"[^;\n]*edge[^;\n]*", "", out)  # the target 1e+300 is printed; no budget at the edge 1e-30 is
    assert "any" in out and all(float(t) > 1e-25 for t in re.findall(r"\d+(?:\.\d+)?e[+-]\d+", said))
    # the finite --max-ratio-to-lower 2 case of the issue: no number at the edge in the JSON's value nor the table
    ratio = json.loads(_run([*RATIO, "--json"]).stdout)
    assert ratio["value"] is None or ratio["value"] > 1e-25
    assert all(h["value"] is None or h["value"] > 1e-25 for h in ratio["horizons"])


def test_mutant_budget_json_with_the_edge_as_value_is_rejected(monkeypatch):
    from boundcalc.cli import budget_cmd

    monkeypatch.setattr(budget_cmd, "_json_value", lambda plan: plan.value)  # the former JSON: value = 1e-30
    with pytest.raises(AssertionError):
        _check_edge_json(json.loads(_run([*EDGE, "--json"]).stdout))


# -- regret: a high-probability headline says so ---------------------------------------------------------------------
def _check_headline(out: str, obj: dict):
    from boundcalc.bounds import registry

    hp = any(c.startswith("high-probability") for c in registry.get(obj["value_id"]).caveats)
    line = next(ln for ln in out.splitlines() if ln.startswith("Headline"))
    if hp:
        m = re.search(r"with probability ≥ 1 − δ \(δ = ([0-9.e+-]+)\)", " ".join(out.split()))
        assert m and float(m.group(1)) == obj["inputs"]["instance_values"]["delta"], line
    else:
        assert "probability" not in line


@pytest.mark.parametrize("args", [["--setting", "linear", "--rho", "0.1", "--T", "1e6"],
                                  ["--setting", "finite", "--epsilon", "0.5", "--T", "1e5"]])
def test_regret_headline_says_with_probability_for_a_high_probability_bound(args):
    obj = json.loads(_run(["regret", *args, "--json"]).stdout)
    _check_headline(_run(["regret", *args]).stdout, obj)
    if args[1] == "linear":
        assert obj["value_id"] == "003-thm4-explicit-hp" and obj["value_high_probability"]
        assert obj["value_delta"] == obj["inputs"]["instance_values"]["delta"]


def test_mutant_plain_headline_is_rejected(monkeypatch):
    from boundcalc.cli import regret_cmd

    args = ["regret", "--setting", "linear", "--rho", "0.1", "--T", "1e6"]
    obj = json.loads(_run([*args, "--json"]).stdout)
    monkeypatch.setattr(regret_cmd, "headline_probability", lambda h: "")
    with pytest.raises(AssertionError):
        _check_headline(_run(args).stdout, obj)


# -- simulate ----------------------------------------------------------------------------------------------------------
SIM = ["simulate", "--algo", "KL-UCB,DP-SE", "--epsilon", "1", "--T", "400", "--runs", "6", "--block-runs", "3"]


def test_simulate_multi_json_value_is_each_algorithms_mean_regret():
    obj = json.loads(_run([*SIM, "--json"]).stdout)
    assert obj["value"] == {r["algo"]: r["regret_mean"] for r in obj["results"]}
    # the same number as the single-algorithm command, whose value is its mean regret (README: the main number)
    single = json.loads(_run(["simulate", "--algo", "DP-SE", "--epsilon", "1", "--T", "400", "--runs", "6",
                              "--block-runs", "3", "--json"]).stdout)
    assert obj["value"]["DP-SE"] == single["value"]


def _check_simulate_text(out: str):
    assert "regret_check" not in out and "adapter" not in out  # no developer message
    kl = next(ln for ln in out.splitlines() if ln.startswith("KL-UCB:"))
    assert "episodes" not in kl  # KL-UCB has no episodes
    assert "mean episodes" in next(ln for ln in out.splitlines() if ln.startswith("DP-SE:"))
    assert not re.search(r"± -?\d(\.\d+)?e-1\d", out)  # rounding noise such as ± 2.2e-16


def test_simulate_text_is_user_facing(tmp_path):
    out = _run([*SIM, "--plot", str(tmp_path / "s.png")]).stdout
    _check_simulate_text(out)


def test_mutant_simulate_old_text_is_rejected(monkeypatch):
    from boundcalc.cli import simulate_output

    monkeypatch.setattr(simulate_output, "EPISODIC", ("episode", "chunk", "stretch", "thinning", "step"))
    with pytest.raises(AssertionError):
        _check_simulate_text(_run(SIM).stdout)


def test_half_width_prints_rounding_noise_as_zero():
    from boundcalc.cli.simulate_output import half_width

    m = 10.364152668966074
    hi = math.nextafter(math.nextafter(m, math.inf), math.inf)  # identical runs: the width is float noise
    assert half_width(hi, m, m) == "0"
    assert half_width(m + 1.0, m, m) == "0.5"
    assert half_width(236.6, 0.0, 93.0) == "118"  # every integer digit, never 1.2e+02
    with pytest.raises(AssertionError):  # the old cell: common.fmt((hi - lo) / 2, 2)
        from boundcalc.cli import common

        assert common.fmt((hi - m) / 2, 2) == "0"


# -- concentration: trivial bounds marked -----------------------------------------------------------------------------
CONC = ["concentration", "--n", "1000", "--m", "10", "--epsilon", "0.5", "--mu", "0.3", "--x", "0.35"]


def _check_trivial_marked():
    obj = json.loads(_run([*CONC, "--json"]).stdout)
    trivial = sorted(k for k, v in obj["bounds"].items() if float(v) >= 1)  # a probability bound >= 1 says nothing
    assert trivial and obj["trivial"] == trivial
    out = _run(CONC).stdout
    for ln in out.splitlines():
        name = ln.strip("│ ").split(" ")[0]
        if name in obj["bounds"]:
            assert ("trivial" in ln) == (name in trivial), ln


def test_concentration_marks_trivial_bounds():
    _check_trivial_marked()


def test_mutant_concentration_unmarked_is_rejected(monkeypatch):
    from boundcalc.cli import concentration_cmd

    monkeypatch.setattr(concentration_cmd, "trivial_bounds", lambda bounds: [])  # the old output: C2 = C3 = 1, unsaid
    with pytest.raises(AssertionError):
        _check_trivial_marked()


# -- budget lists: regret only, a clear one-line error elsewhere --------------------------------------------------------
@pytest.mark.parametrize("args", [
    ["simulate", "--algo", "DP-SE", "--epsilon", "0.1,1"],
    ["episodes", "--algo", "adac-ucb", "--rho", "0.1,1"],
    ["audit", "--algo", "dp-se", "--epsilon", "0.5,1"],
    ["convert", "--rho", "0.1,0.2"],
    ["budget", "--setting", "linear", "--min-T", "--rho", "0.1,1"],
])
def test_budget_list_outside_regret_is_a_one_line_error(args, capsys):
    from boundcalc.cli.app import main

    with pytest.raises(SystemExit) as e:
        main(args)  # the console script's one-line error formatting
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if x.strip()]
    assert e.value.code == 2 and len(lines) == 1 and "accepted by 'regret' only" in lines[0], err


def test_regret_accepts_a_budget_list():
    obj = json.loads(_run(["regret", "--setting", "linear", "--rho", "0.01,0.1", "--T", "1e6", "--json"]).stdout)
    assert len(obj["value"]) == 2
