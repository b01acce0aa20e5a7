"""CLI command ``lower``: the KL decomposition of seed 003 Thm 8 for two instances the user gives, and the regret
lower bound it implies for every ρ-Interactive zCDP policy (mathematics in boundcalc.lower; docs/lower.md).

Module level: typer/stdlib only.
"""

from __future__ import annotations

import typer

from . import options
from .common import command, console, emit_json, esc, fmt, kv_table


def _instance(setting, file, means, family, sigma, which):
    from ..envs import spec
    from ..errors import InputError

    if (file is None) == (means is None):
        opts = "--instance / --means" if which == "instance" else "--alt / --alt-means"
        raise InputError(opts, "exactly one of them (an instance file or the arm means)", None)
    if means is not None and setting != "finite":
        raise InputError("--means" if which == "instance" else "--alt-means",
                         "only with --setting finite (linear instances: --instance / --alt files)", means)
    if file is not None:
        inst = spec.load_instance(file)
        if inst.setting != setting:
            raise InputError("--instance" if which == "instance" else "--alt",
                             f"an instance of --setting {setting}", inst.setting)
        return inst
    try:
        from .problem import instance_from_options

        return instance_from_options(setting, means=means, family=family, sigma=sigma)
    except InputError as exc:  # --alt-means's problems name --alt-means
        if which == "alt" and exc.parameter == "--means":
            raise InputError("--alt-means", exc.allowed, exc.got) from None
        raise


@command
def lower_cmd(
    rho: options.LowerRhoOpt,
    setting: options.SettingOpt = None,
    instance: options.InstanceFileOpt = None,
    means: options.MeansOpt = None,
    alt: options.AltOpt = None,
    alt_means: options.AltMeansOpt = None,
    family: options.FamilyOpt = None,
    sigma: options.SigmaOpt = None,
    T: options.TOpt = "1e4",
    pulls: options.PullsOpt = None,
    variance: options.VarianceOpt = None,
    json_out: options.JsonOpt = False,
):
    """KL(m_νπ ‖ m_ν'π) ≤ ρ([EΣt_{a_t}]² + EΣt_{a_t}(1 − t_{a_t}) + VarΣt_{a_t}) (seed 003 Thm 8) for two instances,
    and the lower bound Reg(ν) + Reg(ν') ≥ (T·c/4)·exp(−KL) it implies (Bretagnolle–Huber, seed 003 App. G-B1)."""
    from .. import validate
    from ..errors import InputError
    from ..lower import lower_bound_report

    if setting is None:  # an instance file carries its setting (issue 23)
        setting = "finite"
        if instance is not None:
            from .instance_options import setting_of

            setting = setting_of(None, instance, ("finite", "linear"))
    if setting not in ("finite", "linear"):
        raise InputError("--setting", "finite or linear", setting)
    r = validate.positive("--rho", rho)
    Tn = validate.horizon("--T", T)
    sg = None if sigma is None else validate.positive("--sigma", sigma)
    if family is not None and family not in ("bernoulli", "gaussian"):
        raise InputError("--family", "bernoulli or gaussian", family)
    if (family is not None or sg is not None) and means is None and alt_means is None:
        raise InputError("--family / --sigma", "used only with --means / --alt-means", family or sigma)
    pl = None if pulls is None else validate.float_list("--pulls", pulls, validate.nonnegative)
    var = None if variance is None else validate.nonnegative("--variance", variance)
    if var is not None and pl is None:
        raise InputError("--variance", "given together with --pulls", variance)
    a = _instance(setting, instance, means, family, sg, "instance")
    b = _instance(setting, alt, alt_means, family, sg, "alt")
    if pl is not None and len(pl) != a.n_arms:
        raise InputError("--pulls", f"{a.n_arms} values (one per arm)", len(pl))
    rep = lower_bound_report(a, b, r, Tn, pulls=pl, variance=var)
    inputs = {"setting": setting, "rho": r, "T": Tn, "pulls": pl, "variance": var}
    if json_out:
        emit_json("lower", inputs, instance=a.to_dict(), alt=b.to_dict(), **rep)
        return
    lb = rep["lower_bound"]
    rows = [("ν", esc(a.label)), ("ν'", esc(b.label)), ("reward family", rep["family"]),
            ("t_a = TV(P_a, P'_a)", ", ".join(fmt(x, 4) for x in rep["tv_per_arm"])),
            ("KL bound, ρ-Interactive zCDP (Thm 8)", fmt(rep["kl_bound_private"])),
            ("  form", rep["kl_bound_private_terms"]["form"]),
            ("KL bound, non-private (Σ E N_a KL_a)", fmt(rep["kl_bound_nonprivate"])),
            ("KL used (the smaller)", fmt(rep["kl_bound_used"])),
            ("c = min gap that separates ν from ν'", fmt(lb["c"])),
            ("Reg(ν) + Reg(ν') ≥", fmt(rep["best_sum_lower"])),
            ("max(Reg(ν), Reg(ν')) ≥", fmt(rep["best_max_lower"]))]
    console().print(kv_table(f"lower: seed 003 Thm 8 at ρ = {r:g}, T = {Tn:g}", rows,
                             caption="seed 003 Thm 8, Thm 1, Lemma 6 (Bretagnolle–Huber); docs/lower.md"))


def register(app: typer.Typer) -> None:
    app.command("lower")(lower_cmd)
