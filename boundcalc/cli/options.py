"""Every option of every command, declared once (issue 23 §1; ARCHITECTURE "One declaration per concept").

One ``Annotated`` alias per flag (name, type, help; the default stays in each command's signature, where commands
differ), grouped: output, instance, budget, target, simulation, plugins, proofs, function arguments, then the
options of one command each. A command declares ``means: options.MeansOpt = None``. Where one flag means different
things in two commands, there are two declarations, each with a comment saying why. Where commands give one flag
different Python types (``--seed``: int in some, a count string in others), one ``typer.Option`` serves aliases of
each type, so name and help are still declared once and no option changes its type.
Declared elsewhere: the root's ``--version`` (app.py, beside its eager callback), ``episodes --algo`` (the phased
algorithms: the cards' episode_schedule) and the hidden deprecated spellings (common.alias_option, from
common.DEPRECATED_ALIASES).
Module level: typer/stdlib only (the CLI imports this at start-up).
"""

from __future__ import annotations

from typing import Annotated, List, Optional

import typer

from . import sweep

FloatStr = dict(metavar="FLOAT")
LIST_HELP = f" Also {sweep.SYNTAX}."

# -- the parser of a one-value budget option ---------------------------------------------------------------------
LIST_ONLY_IN_REGRET = "one number (budget lists such as 0.1,1 are accepted by 'regret' only)"


def single_budget(text) -> float:
    """Parser of a one-value budget option: a float, or the one-line error that budget lists are for ``regret``
    (docs/vocabulary.md, "budget lists"), instead of click's "is not a valid float"."""
    if isinstance(text, (int, float)):
        return float(text)
    s = str(text).strip()
    if "," in s:
        raise typer.BadParameter(f"{LIST_ONLY_IN_REGRET}, got {s!r}")
    try:
        return float(s)
    except ValueError:
        raise typer.BadParameter(f"a number, got {s!r}") from None


def budget_option(flag: str, help: str):
    """A one-value budget option (``single_budget``)."""
    return typer.Option(flag, help=help, parser=single_budget, metavar="<float>")


# -- output ------------------------------------------------------------------------------------------------------
JsonOpt = Annotated[bool, typer.Option("--json", help="Print exactly one JSON object on stdout.")]
DigitsOpt = Annotated[
    Optional[int],
    typer.Option("--digits", help="Compute with mpmath at N significant digits (N >= 1)."),
]
SymbolicOpt = Annotated[bool, typer.Option("--symbolic", help="Show the formula (unicode and LaTeX).")]
PlotOpt = Annotated[Optional[str], typer.Option("--plot", help="Write a picture to FILE.png, FILE.svg or FILE.pdf "
                                                  "(the format follows the extension).")]
XScaleOpt = Annotated[Optional[str], typer.Option(
    "--x-scale", help="x axis of the figures: linear or log (default: each figure's own; a paper's figure takes the "
                      "paper's scale).")]
YScaleOpt = Annotated[Optional[str], typer.Option(
    "--y-scale", help="y axis of the figures: linear or log (default: each figure's own; a paper's figure takes the "
                      "paper's scale).")]
LogYOpt = Annotated[bool, typer.Option("--log-y", help="Log y axis of the figures (simulate: of --plot and "
                    "--plot-dist, curves spanning decades; shorthand for --y-scale log).")]
PlotDistOpt = Annotated[Optional[str], typer.Option("--plot-dist", help="Draw the regret at T over runs (CCDF per "
                        "algorithm) to FILE.png/.svg/.pdf (budget: --by simulation, at the measured answers).")]
ReportOpt = Annotated[Optional[str], typer.Option("--report", help="Write a report: budget (--by simulation) a "
                      "self-contained decision report, FILE.html or FILE.md; verify the verdicts per paper with "
                      "evidence and figures, FILE.md.")]
ExplainOpt = Annotated[bool, typer.Option("--explain", help="Full caveat texts, regime notes, conversions, "
                       "equivalents and the reasons a bound does not apply.")]
ListOpt = Annotated[bool, typer.Option("--list", help="List what the command runs, without running it (audit: the "
                    "auditable algorithms and their mutants; verify: the claims with id, source, method, "
                    "parameters).")]

# -- instance ----------------------------------------------------------------------------------------------------
SettingOpt = Annotated[Optional[str], typer.Option("--setting", help="finite | linear | contextual | glm (an "
                       "--instance file carries its own; lower: finite or linear, default finite; bounds show: only "
                       "this setting's bounds).")]
InstanceFileOpt = Annotated[Optional[str], typer.Option(
    "--instance", help="Instance file (FILE.toml or FILE.json, schema boundcalc.instance/1, docs/instances.md), "
                       "e.g. written by --save-instance; it defines the whole instance (lower: the instance ν).")]
SaveInstanceOpt = Annotated[Optional[str], typer.Option(
    "--save-instance", help="Write the instance used to FILE.toml or FILE.json (read back by --instance in any "
                            "command).")]
EnvOpt = Annotated[Optional[str], typer.Option(
    "--env", help="Named instance of the algorithm's setting: mu1..mu4, zcdp-finite, rdp-2arm | zcdp-linear, "
                  "zcdp-linear-bounded, rdp-linear | zcdp-contextual, zcdp-contextual-bounded, rdp-contextual, "
                  "dgs-synthetic | ldp-single, ldp-logistic, drawn with --env-seed. simulate's default: mu2 / "
                  "zcdp-linear / zcdp-contextual / ldp-single.")]
EnvSeedOpt = Annotated[Optional[str], typer.Option(
    "--env-seed", help="Seed drawing θ*/actions of a linear, contextual or GLM instance given by --K/--d or --env "
                       "(default 3).")]
MeansOpt = Annotated[Optional[str], typer.Option("--means", help="Arm means, e.g. 0.75,0.5 (finite; overrides "
                     "--env; lower: of the instance ν).")]
GapsOpt = Annotated[Optional[str], typer.Option(
    "--gaps", help="Finite: the gaps below the best arm, one value for K − 1 arms (with --K) or one per arm.")]
BestMeanOpt = Annotated[Optional[float], typer.Option(
    "--best-mean", help="Finite, with --gaps: the best arm's mean (default 0.5 + largest gap / 2).")]
KOpt = Annotated[Optional[str], typer.Option("--K", help="Number of arms/actions (finite: with --gaps, or alone the "
                 "μ2 pattern; linear/contextual/GLM: drawn with --env-seed; episodes: GOPE, DP-SE).")]
DOpt = Annotated[Optional[str], typer.Option("--d", help="Dimension (linear, contextual, GLM; episodes: GOPE, "
                 "OFUL).")]
ThetaOpt = Annotated[Optional[str], typer.Option("--theta", help="Parameter θ*, comma-separated.")]
ActionsOpt = Annotated[Optional[str], typer.Option("--actions", help="Action set: CSV or .npy, K×d (linear; "
                       "contextual: a fixed action set).")]
NoiseOpt = Annotated[Optional[str], typer.Option(
    "--noise", help="Reward noise of a linear/contextual instance (rademacher: ±1 rewards; gaussian) or a GLM one "
                    "(uniform, gaussian).")]
FamilyOpt = Annotated[Optional[str], typer.Option("--family", help="Reward family of a finite instance: bernoulli "
                      "(default) or gaussian (lower: of --means/--alt-means).")]
# --sigma of kl and lower is a reward's standard deviation; concentration's --sigma (NoiseSigmaOpt, below) is the
# scale of a privacy mechanism's noise: two meanings, two declarations.
SigmaOpt = Annotated[Optional[str], typer.Option("--sigma", help="Gaussian reward σ (lower: with --family gaussian, "
                     "default 1; kl: also show the Gaussian KL(N(p, σ²), N(q, σ_q²))).", **FloatStr)]
Lambda0Opt = Annotated[Optional[float], typer.Option("--lambda0", help="Minimum eigenvalue λ0 = λ_min E[AAᵀ] > 0 of "
                       "the context covariance (contextual; episodes: OFUL, default 1/d).")]
ParamOpt = Annotated[Optional[List[str]], typer.Option("--param", help="Algorithm/instance parameter name=value "
                     "(repeatable), e.g. lam=1, C=0.5, schedule=safe, alpha=0.5 (audit: among those the audit "
                     "follows, see --list, e.g. C_B=8 or calibration=safe for LDP-OLS).")]
PriorOpt = Annotated[Optional[str], typer.Option(
    "--prior", help="Instance prior for deployment (θ* or means unknown): sphere (linear/contextual/glm), "
                    "uniform-gaps or uniform-means (finite); with --instances N (docs/instances.md).")]
InstancesOpt = Annotated[Optional[str], typer.Option(
    "--instances", help="Instances drawn from --prior (default 20; at most 10000).")]
PriorQuantileOpt = Annotated[Optional[float], typer.Option(
    "--prior-quantile", help="Besides the worst instance of --prior, report this quantile over the instances, in "
                             "(0, 1) (default 0.9).")]
PriorParamOpt = Annotated[Optional[List[str]], typer.Option(
    "--prior-param", help="Prior parameter name=value (repeatable), e.g. radius=0.5, gap_low=0.1.")]
PriorSeedOpt = Annotated[Optional[str], typer.Option("--prior-seed", help="Seed of the prior's draws (default 0).")]

# -- budget ------------------------------------------------------------------------------------------------------
# A one-value budget (float, parsed by single_budget) and a budget list (regret sweeps it: a string) are two
# declarations of --epsilon, --rho, --rdp-epsilon, --ldp-epsilon (and --alpha: convert takes a list of orders).
EpsilonOpt = Annotated[Optional[float], budget_option("--epsilon", "Pure ε-DP budget (with --delta: (ε, δ)-DP; "
                       "audit: the ε of the audited claim, default: see --list).")]
RhoOpt = Annotated[Optional[float], budget_option("--rho", "ρ-zCDP budget.")]
AlphaOpt = Annotated[Optional[float], typer.Option("--alpha", help="Rényi order α > 1 (with --rdp-epsilon; budget: "
                     "also of --notion rdp).")]
RdpEpsilonOpt = Annotated[Optional[float], budget_option("--rdp-epsilon", "(α, ε)-RDP level ε (with --alpha).")]
_DELTA = typer.Option("--delta", help="Privacy δ of (ε, δ)-DP, in (0, 1) (budget: of --notion approx and of the "
                      "(ε, δ) equivalents, default 1e-6; convert: or the target δ, default 1e-6; audit: of the "
                      "audited claim, default 0 for ε-DP, 0.2 for zCDP/RDP, 1e-3 for LinUCB-DGS, 0.01 for the "
                      "(ε, δ)-LDP algorithms LDP-OLS, LDP-UCB, LDP-GLOC).")
DeltaOpt = Annotated[Optional[float], _DELTA]
DeltaTextOpt = Annotated[Optional[str], _DELTA]  # budget reads it as text (same flag, same help)
LdpEpsilonOpt = Annotated[Optional[float], budget_option("--ldp-epsilon", "Local DP ε.")]
LdpDeltaOpt = Annotated[Optional[float], typer.Option("--ldp-delta", help="Local DP δ (default 0).")]
EpsilonListOpt = Annotated[Optional[str], typer.Option("--epsilon", help="Pure ε-DP budget (with --delta: (ε, δ)-DP); "
                                                                          "a comma list sweeps it.")]
RhoListOpt = Annotated[Optional[str], typer.Option("--rho", help="ρ-zCDP budget; a comma list sweeps it.")]
RdpEpsilonListOpt = Annotated[Optional[str], typer.Option("--rdp-epsilon", help="(α, ε)-RDP level ε (with --alpha); "
                                                                                 "a comma list sweeps it.")]
LdpEpsilonListOpt = Annotated[Optional[str], typer.Option("--ldp-epsilon", help="Local DP ε; a comma list sweeps it.")]
AlphaListOpt = Annotated[Optional[str], typer.Option("--alpha", help="Rényi order(s) > 1, e.g. '2' or '2,4,8'.")]
# lower's --rho is the ρ of seed 003's ρ-Interactive zCDP lower bound, a text parsed by the command (no budget
# parser, no list error): a separate declaration keeps its type and its errors.
LowerRhoOpt = Annotated[str, typer.Option("--rho", help="ρ of ρ-Interactive zCDP (> 0).", metavar="FLOAT")]
# Two vocabularies: budget's --notion names the budget a user chooses (rho | epsilon | …), bounds show's filters the
# bounds by their privacy notion (none | pure | zcdp | …).
NotionOpt = Annotated[Optional[str], typer.Option("--notion", help="The budget you choose: rho | epsilon | rdp | "
                      "approx | ldp (default: epsilon for finite, ldp for glm, rho otherwise).")]
BoundsNotionOpt = Annotated[Optional[str], typer.Option("--notion", help="none | pure | zcdp | rdp | approx | ldp")]

# -- target ------------------------------------------------------------------------------------------------------
# One horizon (simulate, episodes, lower) and a table over horizons (regret, budget: lists and lo:hi:n ranges) are
# two declarations of --T.
TOpt = Annotated[str, typer.Option("--T", help="Horizon T (accepts 1e6).")]
TListOpt = Annotated[Optional[str], typer.Option("--T", help="Horizon(s), e.g. 1e6, 1e4,1e5,1e6 or a log-spaced "
                     "range 1e3:1e7:20 (a table over T; regret's default 1e6, with --check 1e4 in the contextual and "
                     "glm settings).")]
ConfidenceOpt = Annotated[Optional[float], typer.Option("--confidence", help="Confidence δ of high-probability "
                          "bounds (they hold with probability ≥ 1 − δ; episodes: GOPE's), in (0, 1).")]

# -- simulation --------------------------------------------------------------------------------------------------
AlgoOpt = Annotated[Optional[str], typer.Option("--algo", help="Algorithm name (see 'boundcalc algorithms'); "
                    "simulate: or several of one setting separated by commas (same instance, budget, T, runs and "
                    "seeds, one table and one figure); budget --by simulation: the private algorithms, e.g. "
                    "DP-KLUCB,DP-IMED (default: those of the setting with a named non-private counterpart); audit: "
                    "the algorithm to audit (see --list).")]
RunsOpt = Annotated[Optional[str], typer.Option("--runs", help="Monte Carlo runs (accepts 1e2): simulate's "
                    "independent runs; of --check (default 100); budget --by simulation: the first batch at each "
                    "budget (default 100; more where undecided, up to --max-runs).")]
_SEED = typer.Option("--seed", help="Seed of the runs (SeedSequence): of simulate, audit, worksheet run (each "
                     "simulation derives its own), the Monte Carlo of concentration, --check and --by simulation.")
SeedOpt = Annotated[str, _SEED]
SeedIntOpt = Annotated[int, _SEED]  # audit, concentration and regret read --seed as an int (same flag, same help)
CheckOpt = Annotated[bool, typer.Option("--check", help="Also simulate (Monte Carlo, same seeds): regret: the "
                     "empirical regret of each algorithm; budget: the recommending bound's algorithm at the chosen "
                     "budget and at its non-private limit, the measured overhead with a 95% interval.")]
BlockRunsOpt = Annotated[Optional[str], typer.Option("--block-runs", help="Runs per engine block (fixes the "
                         "numbers; default 50: a speed setting, every run is independent; budget --by simulation "
                         "with --pairing common: the clusters of the overhead's interval, default --runs // 20).")]
ExecutorOpt = Annotated[Optional[str], typer.Option("--executor", help="Where the blocks of runs are computed: "
                        "in-process, processes (local worker processes), dask-local (a Dask LocalCluster of "
                        "--workers workers) or dask (the cluster at --scheduler). The numbers are bit-identical "
                        "whatever runs them. Default: in-process (simulate: processes if --processes > 1). Dask needs "
                        "pip install 'boundcalc\\[dask]'.")]
WorkersOpt = Annotated[Optional[str], typer.Option("--workers", help="Workers of --executor processes or "
                       "dask-local (default: the CPU count; capped at the blocks and the CPUs).")]
SchedulerOpt = Annotated[Optional[str], typer.Option("--scheduler", help="Address of a running Dask scheduler "
                         "for --executor dask, \\[tcp://]HOST:PORT (its workers need the same boundcalc and "
                         "numpy).")]
BetaOpt = Annotated[Optional[float], typer.Option("--beta", help="Algorithm parameter β: the optimism parameter "
                    "of AdaP/AdaC/AdaR-UCB; DP-SE's confidence β in (0, 1) (default 1/T).")]
N1Opt = Annotated[Optional[str], typer.Option("--n1", help="DP-KLUCB/DP-IMED initial pulls per arm.")]
BatchRatioOpt = Annotated[Optional[float], typer.Option("--batch-ratio", help="DP-KLUCB/DP-IMED batch ratio α > 1.")]

# -- plugins -----------------------------------------------------------------------------------------------------
BoundsFileOpt = Annotated[Optional[list[str]], typer.Option(
    "--bounds-file", metavar="FILE",
    help="Add the bounds declared in FILE (.toml with \\[\\[bound]] tables, or .py defining BOUNDS); repeatable. "
         "See docs/plugins.md.")]
AlgorithmsFileOpt = Annotated[Optional[list[str]], typer.Option(
    "--algorithms-file", metavar="FILE.py",
    help="Add the algorithms of FILE.py (its list ALGORITHMS, and its BOUNDS if it defines them); repeatable. "
         "See docs/plugins.md.")]
BoundOpt = Annotated[Optional[List[str]], typer.Option(
    "--bound", metavar="ID", help="Select a bound by its id (repeatable; yours from --bounds-file too): always in the "
                                  "table, marked ★, its own line under the headline, drawn thicker by --plot.")]

# -- proofs (check, verify) --------------------------------------------------------------------------------------
BoxOpt = Annotated[Optional[str], typer.Option("--box", help="Ranges of every parameter, e.g. "
                   "'mu=0.01:0.99,epsilon=1e-3:10' (name=lo:hi or name=value; log spacing for ranges spanning two "
                   "decades or more; verify: with --claim).")]
MethodOpt = Annotated[Optional[str], typer.Option("--method", help="How to decide: proof or grid; check: also auto "
                      "(a proof when every function has an interval enclosure, else the grid); verify: also "
                      "monte-carlo (default: the claim's first evaluator, proof where a claim has one).")]
MaxSecondsOpt = Annotated[Optional[str], typer.Option("--max-seconds", help="Cap on each proof (at most 600; check: "
                          "the proof, and again the grid; verify: per part of a claim, default 10 s): past it the "
                          "verdict is 'undecided' (verify: the claim's grid decides between 'no counterexample' and "
                          "a counterexample).", metavar="SECONDS")]

# -- function arguments (kl, kl-inf, d-eps, concentration) -------------------------------------------------------
# --epsilon here is an argument of a function (d_ε, the Laplace noise Lap(1/ε)), a list swept like the others, not
# a budget of an algorithm: a separate declaration from the budget options above.
EpsilonArgOpt = Annotated[Optional[str], typer.Option("--epsilon", help="Privacy parameter ε > 0: of d_ε (kl-inf: "
                          "also d_ε,inf(ν, μ*) = inf{d_ε(ν, Q) : mean(Q) > μ*}, seed 001 Eq. 9; Bernoulli: "
                          "d_ε(μ, μ*)); concentration: Laplace noise Lap(1/ε) per batch." + LIST_HELP, **FloatStr)]
MuOpt = Annotated[Optional[str], typer.Option("--mu", help="Bernoulli mean μ in [0, 1] (d-eps: the mean being "
                  "moved, d_ε's first argument; kl-inf: the Bernoulli form)." + LIST_HELP, **FloatStr)]
MuStarOpt = Annotated[Optional[str], typer.Option("--mu-star", help="Target mean μ* in [0, 1] (d-eps: the second "
                      "argument)." + LIST_HELP, **FloatStr)]
NoiseSigmaOpt = Annotated[Optional[str], typer.Option("--sigma", help="Gaussian noise N(0, σ²) per batch instead of "
                          "Laplace." + LIST_HELP, **FloatStr)]
# kl's --level is the level of a kl-UCB index (a list); audit's --level (AuditLevelOpt) the confidence of its lower
# bound on ε: two meanings.
LevelOpt = Annotated[Optional[str], typer.Option("--level", help="Also show kl-UCB/kl-LCB of p at this level "
                     "(>= 0).", **FloatStr)]
AuditLevelOpt = Annotated[float, typer.Option("--level", help="Confidence level 1 − δ of the lower bound on ε, in "
                          "[0.5, 1).")]

# -- audit only ---------------------------------------------------------------------
TrialsOpt = Annotated[Optional[str], typer.Option("--trials", help="Runs on each of the two inputs (accepts 1e4; "
    "default per algorithm, see --list).")]
MutantOpt = Annotated[str, typer.Option("--mutant", help="none, noise-halved, no-noise, fresh-tree (LinUCB-DGS) or "
    "l2-laplace (Private-LinUCB): a deliberately broken copy.")]

# -- bounds only ---------------------------------------------------------------------
KindOpt = Annotated[Optional[str], typer.Option("--kind", help="upper | lower | upper-minimax | …")]

# -- budget only ---------------------------------------------------------------------
MaxOverheadOpt = Annotated[Optional[float], typer.Option("--max-overhead", help="Target: privacy cost at most "
    "this fraction of the non-private part (0.1 = 10%).")]
MaxRegretOpt = Annotated[Optional[float], typer.Option("--max-regret", help="Target: regret bound at most R.")]
MaxRatioToLowerOpt = Annotated[Optional[float], typer.Option("--max-ratio-to-lower", help="Target: upper bound "
    "at most X times the largest lower bound of its kind.")]
MinTOpt = Annotated[bool, typer.Option("--min-T", help="Instead: at the budget given (--rho, --epsilon, …), the "
    "smallest T from which each bound is below the trivial bound and, with --max-overhead, from "
    "which its overhead meets the target.")]
ByOpt = Annotated[Optional[str], typer.Option("--by", help="simulation: measure the target on the instance "
    "(each private algorithm against its non-private counterpart, same seeds); bound: the bounds' "
    "answer. Default: simulation when --algo, --quantile, --max-runs, --report or --plot-dist is "
    "given, or --instance or --prior without --bound; else bound.")]
QuantileOpt = Annotated[Optional[float], typer.Option("--quantile", help="--by simulation: the target holds for "
    "the q-quantile of the regret (0.9: the bad runs) instead of the mean.")]
MaxRunsOpt = Annotated[Optional[str], typer.Option("--max-runs", help="--by simulation: most runs at one budget "
    "where the 95% interval straddles the target (default 400).")]
CounterpartOpt = Annotated[Optional[str], typer.Option("--counterpart", help="--by simulation: the non-private "
    "algorithm the private ones are compared with, a name simulate --algo accepts (e.g. "
    "GOPE: the Lattimore–Szepesvári schedule); default: each algorithm's named "
    "counterpart (docs/budget.md).")]
CounterpartParamOpt = Annotated[Optional[List[str]], typer.Option("--counterpart-param", help="--by simulation: "
    "a parameter name=value of --counterpart (repeatable), as simulate --param.")]
PairingOpt = Annotated[Optional[str], typer.Option("--pairing", help="--by simulation: independent (the "
    "counterpart on its own seeds, large blocks; default in the finite setting) or common (on "
    "the private runs' seeds, the engine blocks as clusters; default otherwise).")]

# -- check only ---------------------------------------------------------------------
PointsOpt = Annotated[str, typer.Option("--points", help="Grid: about this many points in total (e.g. 1e4).")]

# -- concentration only ---------------------------------------------------------------------
NOpt = Annotated[str, typer.Option("--n", help="Number of Bernoulli samples n >= 1 (accepts 1e6)." + LIST_HELP,
    metavar="COUNT")]
MOpt = Annotated[str, typer.Option("--m", help="Number of noises (batches) m >= 1 (accepts 1e3)." + LIST_HELP,
    metavar="COUNT")]
XOpt = Annotated[str, typer.Option("--x", help="Threshold x in [0, 1]: x < μ lower tail, x > μ upper tail." + LIST_HELP,
    **FloatStr)]
McRunsOpt = Annotated[Optional[str], typer.Option("--mc-runs", help="Add a Monte Carlo frequency from this many runs (one count; "
    "every point uses --seed).", metavar="COUNT")]

# -- episodes only ---------------------------------------------------------------------
LambdaOpt = Annotated[float, typer.Option("--lambda", help="OFUL ridge λ > 0.")]
COpt = Annotated[float, typer.Option("--C", help="OFUL switching constant C > 0 (det ratio 1 + C).")]
RowsOpt = Annotated[int, typer.Option("--rows", help="Table: show at most N rows (first and last).")]

# -- info only ---------------------------------------------------------------------
POpt = Annotated[str, typer.Option("--p", help="First Bernoulli mean p in [0, 1]." + LIST_HELP, **FloatStr)]
QOpt = Annotated[str, typer.Option("--q", help="Second Bernoulli mean q in [0, 1]." + LIST_HELP, **FloatStr)]
SigmaQOpt = Annotated[Optional[str], typer.Option("--sigma-q", help="Std of the second Gaussian (default: --sigma).", **FloatStr)]
SupportOpt = Annotated[Optional[str], typer.Option("--support", help="Support points in [0,1], e.g. 0,0.5,1 (one distribution).",
    metavar="LIST")]
WeightsOpt = Annotated[Optional[str], typer.Option("--weights", help="Probabilities of the support points (sum 1).", metavar="LIST")]
NPullsOpt = Annotated[Optional[str], typer.Option("--N", help="Pulls N: also show the DP-KLUCB index (needs --t).", metavar="COUNT")]
RoundOpt = Annotated[Optional[str], typer.Option("--t", help="Round t for the DP-KLUCB index (ln t).", metavar="COUNT")]

# -- lower only ---------------------------------------------------------------------
AltOpt = Annotated[Optional[str], typer.Option(
    "--alt", help="Alternative instance ν': a file of the same setting (linear: same actions).")]
AltMeansOpt = Annotated[Optional[str], typer.Option("--alt-means", help="Instance ν', finite: its arm means.")]
PullsOpt = Annotated[Optional[str], typer.Option(
    "--pulls", help="The policy's expected pull counts under ν, one per arm, summing to T (default: worst case "
    "over all policies).")]
VarianceOpt = Annotated[Optional[str], typer.Option(
    "--variance", help="With --pulls: Var_ν(Σ_t t_{a_t}) if known (default: the Bhatia–Davis bound).",
    metavar="FLOAT")]

# -- regret only ---------------------------------------------------------------------
AllOpt = Annotated[bool, typer.Option("--all", help="Every applicable bound in the table (by default: the headline's algorithm (budget: the recommendation's), one bound per other algorithm, the largest lower bound of each kind, your bounds).")]

# -- simulate only ---------------------------------------------------------------------
ProcessesOpt = Annotated[str, typer.Option("--processes", help="Worker processes on this machine (--executor "
    "processes; capped at the number of blocks and of CPUs; the numbers do not depend on "
    "it).")]
CheckpointsOpt = Annotated[str, typer.Option("--checkpoints", help="Number of log-spaced checkpoints (default "
    "12; 50 with --plot).")]
SaveOpt = Annotated[Optional[str], typer.Option("--save", help="Write the results to FILE.npz or FILE.json "
    "(checked before the run; written atomically; several algorithms: FILE-ALGO.npz each).")]
ProgressOpt = Annotated[Optional[bool], typer.Option("--progress/--no-progress", help="Progress bar on stderr (default: on when stderr is a terminal and --json is not given).")]

# -- verify only ---------------------------------------------------------------------
PaperOpt = Annotated[Optional[str], typer.Option("--paper", help="Only this paper's claims: 000, 001, 002, 003 or 004.")]
ClaimOpt = Annotated[Optional[str], typer.Option("--claim", help="Only this claim id (see --list).")]
DetailsOpt = Annotated[bool, typer.Option("--details", help="Print every claim with its evidence (default: a "
    "summary by paper and verdict, and the claims that do "
    "not hold as printed).")]

# -- worksheet only ---------------------------------------------------------------------
FullOpt = Annotated[bool, typer.Option("--full/--fast", help="--fast (default): reduced T and runs, seconds; "
    "--full: the paper's scale (minutes; see "
    "worksheets/README.md).")]
OutOpt = Annotated[Optional[str], typer.Option("--out", help="Output directory (created if needed); default "
    "worksheet-output/NAME_SLUG-MODE.")]
StepCapOpt = Annotated[Optional[str], typer.Option(
    "--step-cap", help="The largest horizon simulated for an algorithm that loops over every step (today's "
    "per-step engine: its curve stops there; full mode default 1e5, fast mode none); 0 "
    "lifts the cap.")]
DataOpt = Annotated[Optional[list[str]], typer.Option(
    "--data", help="A real-data file for the experiments that need one, NAME=PATH (repeatable): "
    "autoloan=CPRM-12-001 CSV (worksheet 002, Figure F.1), lastfm=HetRec 2011 Last.fm "
    "directory (worksheet 004, Figure 1(b)); formats in docs/real_data.md.")]
OnlyOpt = Annotated[Optional[list[str]], typer.Option(
    "--only", help="Run only these experiments (their ids as 'worksheet list' names them, e.g. fig5; "
    "repeatable or comma-separated): only their figures are drawn.")]
NoClaimsOpt = Annotated[bool, typer.Option(
    "--no-claims", help="Skip the verifier's judgement of the paper's claims (the report says they were "
    "skipped; 'boundcalc verify --paper NNN' runs them).")]
