"""One declaration per option (issue 23 §1): every flag of every command is declared once, in boundcalc/cli/options.py.

Measured by tools/option_declarations.py (declarations per distinct flag, target <= 1.15). A flag's help text is the
same in every command that takes it, except for the flags that mean different things in different commands
(TWO_MEANINGS; options.py says why next to each). Mutants: a command that declares a flag of its own again, and a
help text that drifts between two commands, are both caught.
"""

from __future__ import annotations

import ast
import importlib.util
import pathlib
import shutil

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = ROOT / "boundcalc" / "cli"

# declared outside options.py, each for a reason options.py's docstring gives
ELSEWHERE = {("app.py", "--version"), ("episodes_cmd.py", "--algo"), ("common.py", None)}  # None: alias_option
# flags with two declarations (two meanings, or one value against a list): options.py comments each
TWO_MEANINGS = {"--epsilon", "--rho", "--rdp-epsilon", "--ldp-epsilon", "--alpha", "--T", "--sigma", "--notion",
                "--level", "--algo"}


def _tool():
    spec = importlib.util.spec_from_file_location("option_declarations", ROOT / "tools" / "option_declarations.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def declared_outside(root: pathlib.Path) -> list[tuple[str, str | None, int]]:
    """(file, flag, line) of every typer.Option / budget_option call outside options.py and ELSEWHERE."""
    out = []
    for p in sorted(root.glob("*.py")):
        if p.name == "options.py":
            continue
        for node in ast.walk(ast.parse(p.read_text())):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
            if not ((name == "Option" and getattr(getattr(f, "value", None), "id", "") == "typer")
                    or name == "budget_option"):
                continue
            lits = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            flag = lits[0] if lits else None
            if (p.name, flag) not in ELSEWHERE:
                out.append((p.name, flag, node.lineno))
    return out


def drifting(params: list[tuple[str, str, str]]) -> dict[str, set[str]]:
    """(command, flag, help) triples -> the flags outside TWO_MEANINGS whose help differs between commands."""
    helps: dict[str, set[str]] = {}
    for _cmd, flag, text in params:
        helps.setdefault(flag, set()).add(text)
    return {f: h for f, h in helps.items() if len(h) > 1 and f not in TWO_MEANINGS}


def _app_params():
    import typer.main

    from boundcalc.cli.app import app

    out = []

    def walk(c, name):
        for k, sub in (getattr(c, "commands", None) or {}).items():
            walk(sub, f"{name} {k}".strip())
        for p in getattr(c, "params", []):
            if getattr(p, "opts", None) and not getattr(p, "hidden", False) and p.opts[0] != "--help":
                out.append((name, p.opts[0], p.help or ""))

    walk(typer.main.get_command(app), "")
    return out


def test_declarations_per_flag_meet_the_target():
    n_typer, n_all, flags, where = _tool().count(str(CLI))
    assert n_all / len(flags) <= 1.15, {f: where[f] for f, n in flags.items() if n > 1}
    twice = {f for f, n in flags.items() if n > 1}
    assert twice <= TWO_MEANINGS, twice - TWO_MEANINGS


def test_every_option_is_declared_in_options_py():
    assert declared_outside(CLI) == [], "declare these options once in boundcalc/cli/options.py"


def test_a_flag_has_one_help_text_in_every_command():
    assert drifting(_app_params()) == {}


def test_every_declaration_of_options_py_is_used():
    tree = ast.parse((CLI / "options.py").read_text())
    names = [n.targets[0].id for n in tree.body if isinstance(n, ast.Assign)
             and isinstance(n.targets[0], ast.Name) and n.targets[0].id.endswith("Opt")]
    text = "\n".join(p.read_text() for p in CLI.glob("*.py") if p.name != "options.py")
    unused = [n for n in names if f"options.{n}" not in text]
    assert unused == []


# -- mutants --------------------------------------------------------------------------------------------------------
def test_mutant_a_command_declaring_a_flag_again_is_caught(tmp_path):
    root = tmp_path / "cli"
    shutil.copytree(CLI, root, ignore=shutil.ignore_patterns("__pycache__"))
    sim = root / "simulate_cmd.py"
    src = sim.read_text()
    assert src.count("means: options.MeansOpt = None") == 1
    sim.write_text(src.replace("means: options.MeansOpt = None", 'means: Annotated[Optional[str], typer.Option('
                               '"--means", help="Arm means, e.g. 0.75,0.5 (finite; overrides --env).")] = None'))
    assert declared_outside(root) == [("simulate_cmd.py", "--means", declared_outside(root)[0][2])]
    n_typer, n_all, flags, where = _tool().count(str(root))
    assert flags["--means"] == 2  # ... and the measure counts it


def test_mutant_a_drifting_help_text_is_caught():
    params = _app_params()
    i = next(k for k, (cmd, flag, _h) in enumerate(params) if cmd == "budget" and flag == "--means")
    params[i] = ("budget", "--means", "Arm means, e.g. 0.75,0.5 (finite).")  # the text before issue 23
    assert set(drifting(params)) == {"--means"}


def reexports(root: pathlib.Path) -> list[tuple[str, str]]:
    """(file, name) of every name a cli module imports from options.py at module level and never uses: a re-export
    kept only so that old imports work (issue 23 item 3: importers use the defining module)."""
    out = []
    for p in sorted(root.glob("*.py")):
        if p.name == "options.py":
            continue
        tree = ast.parse(p.read_text())
        used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module == "options":
                out += [(p.name, a.asname or a.name) for a in node.names if (a.asname or a.name) not in used]
    return out


def test_no_cli_module_re_exports_an_option_alias(tmp_path):
    assert reexports(CLI) == []
    # mutant: common.py importing aliases from options.py again only to re-export them (as it did)
    shutil.copytree(CLI, tmp_path / "cli")
    common = tmp_path / "cli" / "common.py"
    common.write_text(common.read_text() + "\nfrom .options import DigitsOpt, JsonOpt  # noqa: F401\n")
    assert reexports(tmp_path / "cli") == [("common.py", "DigitsOpt"), ("common.py", "JsonOpt")]
