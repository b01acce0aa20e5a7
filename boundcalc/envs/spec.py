"""One bandit instance for every command: the :class:`Instance` value, its file format and instance priors.

An :class:`Instance` is the data that defines a bandit problem of one setting (docs/instances.md gives the schema):

* ``finite``: the arm means, the reward family (``bernoulli`` or ``gaussian``) and the Gaussian sigma;
* ``linear``: the action set (K x d) and theta* (d,), the reward noise (``rademacher``: +-1 rewards of mean
  <a, theta*>, bounded; ``gaussian``: N(0, sigma^2)) -- the model of seed 003 Eq. 3 / seed 000 Eq. 7;
* ``contextual``: theta*, K actions per round and their distribution (``gaussian``: N(mean, scale^2 I), projected
  onto the unit ball or not, seed 003 Sec. VII; ``sphere``: uniform on the unit sphere; ``pool``: K distinct rows of
  a fixed pool, a pool of exactly K rows being a fixed action set), the reward noise;
* ``glm``: theta* (single parameter, seed 002 Sec. 2) or one theta*_a per arm (``thetas``, seed 002 Sec. 4), K,
  the link (``linear`` / ``logistic``), the contexts (``sphere`` / ``gaussian``), the noise and its sigma.

``Instance.make_env()`` builds the environment the algorithms and boundcalc.montecarlo simulate;
``Instance.context_overrides()`` the overrides of the bound registry's default instance
(``bounds.registry.make_context``) naming the same instance; ``to_dict`` / ``from_dict`` and
``load_instance`` / ``save_instance`` the file format (TOML or JSON, key ``"schema": "boundcalc.instance/1"``).
The CLI's option resolution (which options conflict, what is drawn when left out) is
``boundcalc.cli.problem.instance_from_options``: this module builds and checks the Instance from values.

Instance priors (for deployment, where theta* or the means are unknown): ``make_prior(name, setting, **params)``;
``prior.sample(n, seed)`` draws n instances, instance i from child i of ``SeedSequence(seed).spawn(n)`` (so the
draws are deterministic in the seed and instance i does not depend on n). Priors: ``sphere`` (linear, contextual,
GLM: theta* uniform on the sphere of radius ``radius``; linear actions uniform on the unit sphere, as seed 003
Sec. VII / App. H), ``uniform-gaps`` (finite: best mean uniform in [best_low, best_high], each other arm's gap
uniform in [gap_low, gap_high]) and ``uniform-means`` (finite: means i.i.d. uniform in [low, high]).

Pure: no CLI imports; numpy only (the environments import what they need).
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import InputError, ParamName, flag

SCHEMA = "boundcalc.instance/1"
SETTINGS = ("finite", "linear", "contextual", "glm")
FINITE_FAMILIES = ("bernoulli", "gaussian")
LINEAR_NOISES = ("rademacher", "gaussian")
CONTEXTUAL_KINDS = ("gaussian", "sphere", "pool")
GLM_LINKS = ("linear", "logistic")
GLM_CONTEXTS = ("sphere", "gaussian")
GLM_NOISES = ("gaussian", "uniform")

# the keys of each setting in the file format (besides schema, setting, name, source)
SETTING_KEYS = {
    "finite": ("means", "family", "sigma"),
    "linear": ("actions", "theta", "noise", "sigma"),
    "contextual": ("theta", "K", "contexts", "context_mean", "context_scale", "project", "actions", "noise", "sigma"),
    "glm": ("theta", "thetas", "K", "link", "contexts", "noise", "sigma"),
}
_COMMON_KEYS = ("schema", "setting", "name", "source")


def _vector(name: str, x) -> tuple[float, ...]:
    if isinstance(x, (str, bytes, dict)):
        raise InputError(name, "a non-empty list of numbers", _short(x))
    try:
        a = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise InputError(name, "a non-empty list of numbers", _short(x)) from None
    if a.ndim != 1 or a.size == 0:
        raise InputError(name, "a non-empty list of numbers", _short(x))
    if not np.all(np.isfinite(a)):
        raise InputError(name, "finite numbers", _short(x))
    return tuple(float(v) for v in a)


def _matrix(name: str, x) -> tuple[tuple[float, ...], ...]:
    try:
        if isinstance(x, (str, bytes, dict)):
            raise TypeError
        a = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise InputError(name, "a K x d array of numbers (a list of equal-length rows)", _short(x)) from None
    if a.ndim != 2 or a.size == 0:
        raise InputError(name, "a non-empty K x d array (a list of equal-length rows)", _short(x))
    if not np.all(np.isfinite(a)):
        raise InputError(name, "finite numbers", "a non-finite entry")
    return tuple(tuple(float(v) for v in row) for row in a)


def _short(x) -> Any:
    s = repr(x)
    return s if len(s) <= 80 else s[:77] + "..."


def _choice(name: str, x, allowed: tuple[str, ...]) -> str:
    if x not in allowed:
        raise InputError(name, "one of " + ", ".join(allowed), x)
    return str(x)


def _pos(name: str, x) -> float:
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise InputError(name, "a positive number", x) from None
    if not (math.isfinite(v) and v > 0):
        raise InputError(name, "a positive finite number", x)
    return v


def _int(name: str, x, minimum: int = 1) -> int:
    if isinstance(x, bool):
        raise InputError(name, f"an integer >= {minimum}", x)
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise InputError(name, f"an integer >= {minimum}", x) from None
    if not (math.isfinite(v) and v.is_integer() and v >= minimum):
        raise InputError(name, f"an integer >= {minimum}", x)
    return int(v)


def unit_sphere(rng: np.random.Generator, n: int, d: int) -> np.ndarray:
    """n points uniform on the unit sphere of R^d (normalised standard Gaussians; envs.linear.unit_sphere)."""
    from .linear import unit_sphere as us

    return us(rng, n, d)


@dataclass(frozen=True)
class Instance:
    """A bandit instance of one setting (see the module docstring; unused fields are None).

    Arrays are stored as tuples of floats (the value is immutable, hashable and compares exactly); ``array(key)``
    returns one as a numpy array. ``source`` says how the instance was made (options, file, seed, prior draw); it
    is not part of the instance's identity (two instances with the same data compare equal).
    """

    setting: str
    name: str = field(default="", compare=False)
    means: tuple | None = None
    family: str | None = None
    sigma: float | None = None
    actions: tuple | None = None
    theta: tuple | None = None
    thetas: tuple | None = None
    K: int | None = None
    contexts: str | None = None
    context_mean: tuple | None = None
    context_scale: float | None = None
    project: bool | None = None
    noise: str | None = None
    link: str | None = None
    source: dict = field(default_factory=dict, compare=False, hash=False)

    # -- validation -----------------------------------------------------------------------------------------
    def __post_init__(self):
        s = _choice("instance setting", self.setting, SETTINGS)
        set_ = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731  (frozen dataclass)
        allowed = set(SETTING_KEYS[s])
        for k in ("means", "family", "sigma", "actions", "theta", "thetas", "K", "contexts", "context_mean",
                  "context_scale", "project", "noise", "link"):
            if getattr(self, k) is not None and k not in allowed:
                raise InputError(f"instance key {k!r}", f"absent for a {s} instance (its keys: "
                                 + ", ".join(SETTING_KEYS[s]) + ")", getattr(self, k))
        set_("name", str(self.name or ""))
        set_("source", dict(self.source or {}))
        getattr(self, "_check_" + s)(set_)

    def _check_finite(self, set_):
        if self.means is None:
            raise InputError("instance means", "given for a finite instance (a list of at least 2 arm means)", None)
        m = _vector("instance means", self.means)
        if len(m) < 2:
            raise InputError("instance means", "a list of at least 2 arm means", list(m))
        fam = _choice("instance family", self.family or "bernoulli", FINITE_FAMILIES)
        if fam == "bernoulli" and not all(0.0 <= x <= 1.0 for x in m):
            raise InputError("instance means", "in [0, 1] for Bernoulli arms", list(m))
        if fam == "bernoulli" and self.sigma is not None:
            raise InputError("instance sigma", "absent for Bernoulli arms (it is the Gaussian arms' sigma)", self.sigma)
        set_("means", m)
        set_("family", fam)
        set_("sigma", _pos("instance sigma", 1.0 if self.sigma is None else self.sigma) if fam == "gaussian" else None)

    def _check_linear(self, set_):
        if self.actions is None or self.theta is None:
            raise InputError("instance actions/theta", "both given for a linear instance", None)
        A = _matrix("instance actions", self.actions)
        th = _vector("instance theta", self.theta)
        if len(th) != len(A[0]):
            raise InputError("instance theta", f"a vector of length d = {len(A[0])} (the columns of actions)", len(th))
        with np.errstate(all="ignore"):
            means = np.asarray(A) @ np.asarray(th)
            spread = np.max(means) - np.min(means) if means.size else 0.0  # the gaps (issue 22 §4: θ* = 1e308)
        if not np.all(np.isfinite(means)) or not np.isfinite(spread):
            raise InputError("instance actions/theta", "values whose mean rewards <a, theta*> are finite in floating "
                             "point", "overflow")
        noise = self.noise or ("rademacher" if np.all(np.abs(means) <= 1 + 1e-12) else "gaussian")
        noise = _choice("instance noise", noise, LINEAR_NOISES)
        if noise == "rademacher":
            if np.any(np.abs(means) > 1 + 1e-12):
                raise InputError("instance noise", "gaussian when some |<a, theta*>| > 1 (+-1 rewards need a mean in "
                                 "[-1, 1])", noise)
            if self.sigma is not None:
                raise InputError("instance sigma", "absent for rademacher rewards", self.sigma)
        set_("actions", A)
        set_("theta", th)
        set_("noise", noise)
        set_("sigma", _pos("instance sigma", 1.0 if self.sigma is None else self.sigma) if noise == "gaussian" else None)

    def _check_contextual(self, set_):
        if self.theta is None:
            raise InputError("instance theta", "given for a contextual instance", None)
        th = _vector("instance theta", self.theta)
        d = len(th)
        kind = _choice("instance contexts", self.contexts or "gaussian", CONTEXTUAL_KINDS)
        if kind == "pool":
            if self.actions is None:
                raise InputError("instance actions", "given (the pool, N x d) for contexts = pool", None)
            P = _matrix("instance actions", self.actions)
            if len(P[0]) != d:
                raise InputError("instance actions", f"an N x d pool with d = {d} (the length of theta)", len(P[0]))
            K = _int("instance K", len(P) if self.K is None else self.K)
            if K > len(P):
                raise InputError("instance K", f"at most the pool size {len(P)}", K)
            set_("actions", P)
        else:
            if self.actions is not None:
                raise InputError("instance actions", "absent unless contexts = pool", "actions")
            if self.K is None:
                raise InputError("instance K", "given (actions per round) for a contextual instance", None)
            K = _int("instance K", self.K)
        if kind == "gaussian":
            mean = (1 / math.sqrt(d),) * d if self.context_mean is None else _vector("instance context_mean",
                                                                                    self.context_mean)
            if len(mean) != d:
                raise InputError("instance context_mean", f"a vector of length d = {d}", len(mean))
            set_("context_mean", mean)
            set_("context_scale", _pos("instance context_scale", math.sqrt(0.1) if self.context_scale is None
                                       else self.context_scale))
            if self.project is not None and not isinstance(self.project, bool):
                raise InputError("instance project", "true or false", self.project)
            set_("project", True if self.project is None else self.project)
        else:
            for k in ("context_mean", "context_scale", "project"):
                if getattr(self, k) is not None:
                    raise InputError(f"instance {k}", "absent unless contexts = gaussian", getattr(self, k))
        bounded = kind == "sphere" or (kind == "gaussian" and self.project) or (
            kind == "pool" and np.all(np.linalg.norm(np.asarray(self.actions), axis=1) <= 1 + 1e-12))
        noise = _choice("instance noise", self.noise or ("rademacher" if bounded and np.linalg.norm(th) <= 1 + 1e-12
                                                         else "gaussian"), LINEAR_NOISES)
        if noise == "rademacher" and not bounded:
            raise InputError("instance noise", "gaussian for unbounded contexts (+-1 rewards need ||x|| <= 1)", noise)
        if noise == "rademacher" and self.sigma is not None:
            raise InputError("instance sigma", "absent for rademacher rewards", self.sigma)
        set_("theta", th)
        set_("K", K)
        set_("contexts", kind)
        set_("noise", noise)
        set_("sigma", _pos("instance sigma", 1.0 if self.sigma is None else self.sigma) if noise == "gaussian" else None)

    def _check_glm(self, set_):
        if (self.theta is None) == (self.thetas is None):
            raise InputError("instance theta/thetas", "exactly one given for a GLM instance (theta: single parameter; "
                             "thetas: one row per arm, multi-parameter)", None)
        link = _choice("instance link", self.link or "linear", GLM_LINKS)
        ctx = _choice("instance contexts", self.contexts or "sphere", GLM_CONTEXTS)
        if self.thetas is not None:
            th = _matrix("instance thetas", self.thetas)
            if len(th) < 2:
                raise InputError("instance thetas", "a K x d array with K >= 2", len(th))
            if self.K is not None and _int("instance K", self.K) != len(th):
                raise InputError("instance K", f"equal to the rows of thetas ({len(th)}) or absent", self.K)
            K = len(th)
            if self.noise not in (None, "gaussian"):
                raise InputError("instance noise", "gaussian for a multi-parameter GLM instance", self.noise)
            noise = "gaussian"
            set_("thetas", th)
        else:
            set_("theta", _vector("instance theta", self.theta))
            if self.K is None:
                raise InputError("instance K", "given (arms per round) for a GLM instance", None)
            K = _int("instance K", self.K, minimum=2)
            noise = _choice("instance noise", self.noise or "gaussian", GLM_NOISES)
        set_("K", K)
        set_("link", link)
        set_("contexts", ctx)
        set_("noise", noise)
        set_("sigma", _pos("instance sigma", 0.1 if self.sigma is None else self.sigma))

    # -- derived ---------------------------------------------------------------------------------------------
    def array(self, key: str) -> np.ndarray | None:
        """A stored vector/matrix as a numpy array (None when absent)."""
        v = getattr(self, key)
        return None if v is None else np.asarray(v, dtype=float)

    @property
    def d(self) -> int | None:
        """The dimension (None for a finite instance)."""
        if self.setting == "finite":
            return None
        if self.thetas is not None:
            return len(self.thetas[0])
        return len(self.theta)

    @property
    def n_arms(self) -> int:
        """K: arms (finite), actions (linear), actions per round (contextual, GLM)."""
        if self.setting == "finite":
            return len(self.means)
        if self.setting == "linear":
            return len(self.actions)
        return int(self.K)

    @property
    def label(self) -> str:
        """The name, else the short description."""
        return self.name or self.describe()

    def describe(self) -> str:
        """A short human title, e.g. "finite, K = 10 Bernoulli, means 0.9…0.5", "linear, K = 50, d = 5, θ* seed 3"."""
        seed = self.source.get("env_seed", self.source.get("seed"))
        draw = ""
        if "prior" in self.source:
            draw = f", prior {self.source['prior']} draw {self.source.get('index', 0)} (seed {self.source.get('seed')})"
        elif seed is not None and self.source.get("drawn"):
            draw = f", θ* seed {seed}" if self.setting != "finite" else ""
        if self.setting == "finite":
            m = self.means
            fam = "Bernoulli" if self.family == "bernoulli" else f"Gaussian (σ = {self.sigma:g})"
            ms = ", ".join(f"{x:.3g}" for x in m) if len(m) <= 5 else f"{max(m):.3g}…{min(m):.3g}"
            return f"finite, K = {len(m)} {fam}, means {ms}" + draw
        if self.setting == "linear":
            noise = "±1 rewards" if self.noise == "rademacher" else f"N(0, {self.sigma:g}²) noise"
            return f"linear, K = {len(self.actions)}, d = {self.d}{draw}, {noise}"
        if self.setting == "contextual":
            if self.contexts == "gaussian":
                c = "Gaussian contexts" + (" (projected)" if self.project else "")
            elif self.contexts == "sphere":
                c = "unit-sphere contexts"
            else:
                c = f"{len(self.actions)}-row pool" if len(self.actions) != self.K else "fixed action set"
            return f"contextual, K = {self.K}, d = {self.d}, {c}{draw}"
        multi = ", multi-parameter" if self.thetas is not None else ""
        return f"glm, K = {self.K}, d = {self.d}, {self.link} link{multi}, {self.contexts} contexts{draw}"

    # -- environments and bound contexts ---------------------------------------------------------------------
    def make_env(self):
        """The environment the algorithms simulate (envs.base / linear / contextual / glm), named ``label``."""
        name = self.label
        if self.setting == "finite":
            from .base import BernoulliEnv, GaussianEnv

            if self.family == "bernoulli":
                return BernoulliEnv(self.means, name=name)
            return GaussianEnv(self.means, sigma=self.sigma, name=name)
        if self.setting == "linear":
            from .linear import LinearEnv

            return LinearEnv(self.array("actions"), self.array("theta"), sigma=self.sigma or 1.0, noise=self.noise,
                             name=name)
        if self.setting == "contextual":
            from .contextual import ContextualLinearEnv

            return ContextualLinearEnv(self.array("theta"), self.K, contexts=self.contexts,
                                       mean=self.array("context_mean"), scale=self.context_scale or 1.0,
                                       pool=self.array("actions"), project=bool(self.project),
                                       sigma=self.sigma or 1.0, noise=self.noise, name=name)
        from .glm import GLMEnv, MultiGLMEnv

        if self.thetas is not None:
            return MultiGLMEnv(self.array("thetas"), link=self.link, contexts=self.contexts, sigma=self.sigma,
                               name=name)
        return GLMEnv(self.array("theta"), self.K, link=self.link, contexts=self.contexts, sigma=self.sigma,
                      noise=self.noise, name=name)

    @classmethod
    def from_env(cls, env, source: dict | None = None, name: str | None = None) -> "Instance":
        """The instance of an environment built elsewhere (a named instance, the bounds' check instance)."""
        s = getattr(env, "setting", "")
        nm = env.name if name is None else name
        src = dict(source or {})
        if s == "finite":
            return cls("finite", name=nm, means=tuple(env.means.tolist()), family=env.family,
                       sigma=getattr(env, "sigma", None) if env.family == "gaussian" else None, source=src)
        if s == "linear":
            return cls("linear", name=nm, actions=env.actions.tolist(), theta=env.theta.tolist(), noise=env.noise,
                       sigma=env.sigma if env.noise == "gaussian" else None, source=src)
        if s == "contextual":
            kw: dict = {}
            if env.contexts_kind == "gaussian":
                kw = dict(context_mean=env.mean.tolist(), context_scale=float(env.scale), project=bool(env.project))
            elif env.contexts_kind == "pool":
                kw = dict(actions=env.pool.tolist())
            return cls("contextual", name=nm, theta=env.theta.tolist(), K=int(env.K), contexts=env.contexts_kind,
                       noise=env.noise, sigma=env.sigma if env.noise == "gaussian" else None, source=src, **kw)
        if s == "glm":
            if getattr(env, "multi", False):
                return cls("glm", name=nm, thetas=env.thetas.tolist(), link=env.link, contexts=env.contexts_kind,
                           sigma=float(env.sigma), source=src)
            return cls("glm", name=nm, theta=env.theta.tolist(), K=int(env.K), link=env.link,
                       contexts=env.contexts_kind, noise=env.noise, sigma=float(env.sigma), source=src)
        raise InputError("environment", "a finite, linear, contextual or GLM environment", type(env).__name__)

    def context_overrides(self) -> dict:
        """Overrides of the bound registry's default instance (``bounds.registry.make_context``) that describe this
        instance, as ``verify.adapters.instance_for`` reads them off an environment: finite {"means"}; linear
        {"actions", "theta"}; contextual {"d", "K", "context_distribution", "theta", "reward_noise"} for the seed
        003 Sec. VII contexts N((1/sqrt d) 1, I/10) (projected or not) or {"actions", "theta", "reward_noise"} for a
        fixed action set; GLM (single parameter, linear link) {"d", "K", "context", "theta", "sigma_r"}.
        InputError when the bounds have no such instance (other contexts, noise levels, links)."""
        if self.setting == "finite":
            return {"means": list(self.means)}
        if self.setting == "linear":
            return {"actions": self.array("actions"), "theta": self.array("theta")}
        d = self.d
        if self.setting == "contextual":
            if self.noise == "gaussian" and abs(self.sigma - 1.0) > 1e-12:
                raise InputError("instance", f"a contextual instance of the bounds (reward noise N(0, 1) or ±1; this "
                                 f"one has N(0, {self.sigma:g}²))", self.describe())
            over: dict = {"theta": self.array("theta"), "reward_noise": self.noise}
            if self.contexts == "gaussian":
                recipe = (np.allclose(self.context_mean, 1 / math.sqrt(d), rtol=1e-9, atol=1e-12)
                          and abs(self.context_scale ** 2 - 0.1) <= 1e-12)
                if not recipe:
                    raise InputError("instance", "a contextual instance of the bounds (contexts N((1/sqrt d) 1, I/10) "
                                     "of seed 003 Sec. VII, projected or not, or a fixed action set)", self.describe())
                over.update(d=d, K=self.K, context_distribution="gaussian-003-projected" if self.project
                            else "gaussian-003")
            elif self.contexts == "pool" and len(self.actions) == self.K:
                over["actions"] = self.array("actions")
            else:
                raise InputError("instance", "a contextual instance of the bounds (seed 003 Sec. VII contexts, "
                                 f"projected or not, or a fixed action set; not {self.contexts} contexts"
                                 + (f" drawing {self.K} of {len(self.actions)} pool rows" if self.contexts == "pool"
                                    else "") + ")", self.describe())
            return over
        if self.thetas is not None or self.link != "linear":
            raise InputError("instance", "a GLM instance of the bounds (single parameter, linear link)",
                             self.describe())
        return {"d": d, "K": self.K, "context": self.contexts, "theta": self.array("theta"), "sigma_r": self.sigma}

    # -- file format ----------------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """The JSON-able dict of the schema (docs/instances.md): schema, setting, name, the setting's keys, source."""
        out: dict = {"schema": SCHEMA, "setting": self.setting, "name": self.name}
        for k in SETTING_KEYS[self.setting]:
            v = getattr(self, k)
            if v is None:
                continue
            if isinstance(v, tuple):
                v = [list(r) if isinstance(r, tuple) else r for r in v]
            out[k] = v
        out["source"] = _jsonable(self.source)
        return out

    @classmethod
    def from_dict(cls, d: dict, where: str = "instance") -> "Instance":
        """The instance of a dict of the schema; InputError naming ``where`` and the problem otherwise."""
        if not isinstance(d, dict):
            raise InputError(where, f"a table/object with \"schema\": \"{SCHEMA}\"", type(d).__name__)
        if d.get("schema") != SCHEMA:
            raise InputError(where, f"an instance file with schema = \"{SCHEMA}\"", d.get("schema"))
        s = d.get("setting")
        if s not in SETTINGS:
            raise InputError(where, "an instance whose setting is one of " + ", ".join(SETTINGS), s)
        unknown = sorted(set(d) - set(_COMMON_KEYS) - set(SETTING_KEYS[s]))
        if unknown:
            raise InputError(where, f"an instance with the keys of the {s} setting ("
                             + ", ".join(SETTING_KEYS[s]) + "); unknown: " + ", ".join(unknown), None)
        src = d.get("source", {})
        if not isinstance(src, dict):
            raise InputError(where, "an instance whose source is a table/object", type(src).__name__)
        try:
            return cls(s, name=d.get("name", ""), source=src, **{k: d[k] for k in SETTING_KEYS[s] if k in d})
        except InputError as exc:
            raise InputError(where, f"a valid {s} instance: {exc}", None) from None

    def with_source(self, **more) -> "Instance":
        """The same instance with ``more`` added to its source."""
        import dataclasses

        return dataclasses.replace(self, source={**self.source, **more})


def _jsonable(x):
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, np.ndarray):
        return _jsonable(x.tolist())
    if isinstance(x, np.generic):
        return x.item()
    return x


# -- files ------------------------------------------------------------------------------------------------------
def load_instance(path: str) -> Instance:
    """Read an instance from ``path`` (TOML by .toml, JSON by .json); InputError naming the file and the problem."""
    import tomllib

    where = f"{flag('instance_file')} {path}"
    ext = os.path.splitext(str(path))[1].lower()
    if ext not in (".toml", ".json"):
        raise InputError(where, "a .toml or .json instance file", ext or "no extension")
    from .. import validate

    raw = validate.read_input_file(where, path, "instance", "instance file")
    try:
        d = tomllib.loads(raw.decode("utf-8")) if ext == ".toml" else json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:  # tomllib.TOMLDecodeError and JSONDecodeError are ValueErrors
        msg = " ".join(str(exc).split())
        raise InputError(where, f"valid {ext[1:].upper()}", msg[:120]) from None
    inst = Instance.from_dict(d, where)
    return inst.with_source(file=os.path.basename(str(path))) if "file" not in inst.source else inst


def save_instance(instance: Instance, path: str) -> str:
    """Write ``instance`` to ``path`` (TOML by .toml, JSON by .json), atomically; returns the path."""
    ext = os.path.splitext(str(path))[1].lower()
    if ext not in (".toml", ".json"):
        raise InputError(ParamName("save_instance"), "a FILE.toml or FILE.json path", path)
    d = instance.to_dict()
    text = json.dumps(d, indent=1) + "\n" if ext == ".json" else to_toml(d)
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise InputError(ParamName("save_instance"), "a writable FILE.toml or FILE.json path",
                         f"{path}: {exc.strerror or exc}") from None
    return str(path)


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # a TOML basic string (same escapes)
    if v is None:
        return '""'
    if isinstance(v, (list, tuple)):
        inner = [_toml_value(x) for x in v]
        if v and isinstance(v[0], (list, tuple)):
            return "[\n" + "".join(f"  {x},\n" for x in inner) + "]"
        return "[" + ", ".join(inner) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {_toml_value(x)}" for k, x in v.items()) + "}"
    return json.dumps(str(v))


def to_toml(d: dict, prefix: str = "") -> str:
    """A small TOML writer for instance dicts (scalars, arrays, arrays of arrays, nested tables)."""
    lines, tables = [], []
    for k, v in d.items():
        if isinstance(v, dict):
            tables.append((k, v))
        else:
            lines.append(f"{json.dumps(str(k)) if not str(k).isidentifier() else k} = {_toml_value(v)}")
    out = "\n".join(lines) + ("\n" if lines else "")
    for k, v in tables:
        name = f"{prefix}.{k}" if prefix else k
        out += f"\n[{name}]\n" + to_toml(v, name)
    return out


# -- from options -----------------------------------------------------------------------------------------------
# What a machine can hold (as the bound registry's LIMITS: bounds/finite.py, bounds/linear.py)
LIMITS = {"K_finite": 10**5, "K": 10**6, "d": 1000, "Kd": 10**7, "draws": 5 * 10**7}


def _limited(name: str, x, maximum: int) -> int:
    v = _int(name, x, minimum=1)
    if v > maximum:
        raise InputError(name, f"an integer in [1, {maximum:g}] (what fits in memory)", x)
    return v


def _seed(x, name: str = ParamName("env_seed")) -> int:
    return _int(name, x, minimum=0)


def _mu2_pattern(K: int) -> tuple[float, ...]:
    """The μ2 pattern with K arms: means evenly spaced from 0.75 to 0.25 (bounds/finite.py derive; seed 001 App. G μ2
    is the case K = 5)."""
    return tuple(float(x) for x in np.linspace(0.75, 0.25, K))


def glm_default_scale(sigma: float, c_r: float = 1.0, C_B: float = 1.0) -> float:
    """Norm of a drawn GLM θ* with uniform noise: min(1, (c_r − √3 σ)/C_B), so that |r| ≤ C_B‖θ*‖ + √3 σ ≤ c_r
    (seed 002 §2 standing assumption |r| ≤ c_r; the rule of verify.adapters.glm_check_theta)."""
    return max(0.0, min(1.0, (c_r - math.sqrt(3.0) * sigma) / C_B))


def _floats(name: str, x) -> list[float]:
    if isinstance(x, str):
        parts = [p.strip() for p in x.split(",")]
        try:
            return [float(p) for p in parts if p != ""] if any(parts) else []
        except ValueError:
            raise InputError(name, "comma-separated numbers", x) from None
    return [float(v) for v in np.ravel(np.asarray(x, dtype=float))]


def load_actions(path: str) -> np.ndarray:
    """A K x d action matrix from a CSV or .npy file (InputError otherwise; as ``regret --actions``)."""
    from .. import validate

    validate.input_file(ParamName("actions"), path, "actions", "CSV or .npy file")
    try:
        arr = np.load(path) if str(path).endswith(".npy") else np.loadtxt(path, delimiter=",", ndmin=2)
    except (OSError, ValueError) as exc:
        raise InputError(ParamName("actions"), "a readable CSV or .npy file of a K×d action matrix",
                         f"{path}: {exc}") from None
    return np.atleast_2d(np.asarray(arr, dtype=float))


# -- priors ------------------------------------------------------------------------------------------------------
PRIORS = {
    "sphere": ("linear", "contextual", "glm"),
    "uniform-gaps": ("finite",),
    "uniform-means": ("finite",),
}
PRIOR_DOCS = {
    "sphere": "θ* uniform on the sphere of radius `radius` (default 1) of R^d; linear: K actions uniform on the unit "
              "sphere (seed 003 Sec. VII / App. H); contextual: the seed 003 Sec. VII contexts (projected); GLM: "
              "Unif(S^{d-1}) contexts, uniform noise (radius default min(1, 1 − √3 σ))",
    "uniform-gaps": "finite: best mean uniform in [best_low, best_high] (default [0.5, 0.9]), each of the K − 1 other "
                    "arms' gaps uniform in [gap_low, gap_high] (default [0.05, 0.4]); arm 0 is the best",
    "uniform-means": "finite: K means i.i.d. uniform in [low, high] (default [0, 1])",
}
_PRIOR_PARAMS = {
    ("sphere", "linear"): {"K": 10, "d": 3, "radius": 1.0},
    ("sphere", "contextual"): {"K": 10, "d": 3, "radius": 1.0},
    ("sphere", "glm"): {"K": 10, "d": 2, "radius": None, "sigma": 0.1},
    ("uniform-gaps", "finite"): {"K": 10, "best_low": 0.5, "best_high": 0.9, "gap_low": 0.05, "gap_high": 0.4,
                                 "family": "bernoulli"},
    ("uniform-means", "finite"): {"K": 10, "low": 0.0, "high": 1.0, "family": "bernoulli"},
}


@dataclass(frozen=True)
class Prior:
    """A distribution over instances of one setting (see PRIOR_DOCS); ``sample(n, seed)`` draws n of them."""

    name: str
    setting: str
    params: dict = field(default_factory=dict, hash=False)

    def describe(self) -> str:
        ps = ", ".join(f"{k} = {v:g}" if isinstance(v, float) else f"{k} = {v}" for k, v in self.params.items())
        return f"prior {self.name} ({self.setting}; {ps})"

    def to_dict(self) -> dict:
        return {"name": self.name, "setting": self.setting, "params": dict(self.params),
                "description": PRIOR_DOCS[self.name]}

    def sample(self, n: int, seed: int = 0) -> list[Instance]:
        """n instances; instance i from child i of ``SeedSequence(seed).spawn(n)`` (deterministic in the seed, and
        instance i is the same whatever n)."""
        n = _int(ParamName("instances"), n, minimum=1)
        seed = _seed(seed, ParamName("seed"))
        size = n * self.params.get("K", 1) * (self.params.get("d", 1) if self.setting == "linear" else 1)
        if size > LIMITS["draws"]:
            raise InputError(ParamName("instances"),
                             f"such that instances × K{' × d' if self.setting == 'linear' else ''} ≤ "
                             f"{LIMITS['draws']:g} (what fits in memory)", n)
        kids = np.random.SeedSequence(seed).spawn(n)
        out = []
        for i, ss in enumerate(kids):
            inst = self._draw(np.random.default_rng(ss))
            out.append(inst.with_source(prior=self.name, params=dict(self.params), seed=seed, index=i))
        return out

    def _draw(self, rng: np.random.Generator) -> Instance:
        p = self.params
        if self.name == "uniform-gaps":
            best = rng.uniform(p["best_low"], p["best_high"])
            gaps = rng.uniform(p["gap_low"], p["gap_high"], p["K"] - 1)
            return Instance("finite", means=(best, *(best - gaps)), family=p["family"])
        if self.name == "uniform-means":
            return Instance("finite", means=rng.uniform(p["low"], p["high"], p["K"]).tolist(), family=p["family"])
        K, d, r = p["K"], p["d"], p["radius"]
        if self.setting == "linear":
            A = unit_sphere(rng, K, d)
            th = r * unit_sphere(rng, 1, d)[0]
            return Instance("linear", actions=A.tolist(), theta=th.tolist())
        if self.setting == "contextual":
            return Instance("contextual", theta=(r * unit_sphere(rng, 1, d)[0]).tolist(), K=K, contexts="gaussian")
        return Instance("glm", theta=(r * unit_sphere(rng, 1, d)[0]).tolist(), K=K, noise="uniform",
                        sigma=p["sigma"])


def make_prior(name: str, setting: str, **params) -> Prior:
    """The prior ``name`` over instances of ``setting`` (PRIORS, PRIOR_DOCS), its parameters overriding the
    defaults; InputError for an unknown prior, a setting it does not cover, an unknown or bad parameter."""
    if name not in PRIORS:
        raise InputError(ParamName("prior"), "one of " + ", ".join(PRIORS), name)
    if setting not in PRIORS[name]:
        raise InputError(ParamName("prior"), f"a prior of the {setting} setting ("
                         + ", ".join(k for k, v in PRIORS.items() if setting in v) + ")", name)
    defaults = dict(_PRIOR_PARAMS[(name, setting)])
    unknown = sorted(set(params) - set(defaults))
    if unknown:
        raise InputError(f"{flag('prior')} parameter", f"one of {', '.join(defaults)} for prior {name}", ", ".join(unknown))
    p = {**defaults, **{k: v for k, v in params.items() if v is not None}}
    if "K" in p:
        p["K"] = _int("K", p["K"], minimum=2 if setting in ("finite", "glm") else 1)
        if p["K"] > LIMITS["K_finite" if setting == "finite" else "K"]:
            raise InputError("K", f"at most {LIMITS['K_finite' if setting == 'finite' else 'K']:g}", p["K"])
    if "d" in p:
        p["d"] = _limited("d", p["d"], LIMITS["d"])
        if p["K"] * p["d"] > LIMITS["Kd"]:
            raise InputError("K", f"an integer with K·d ≤ {LIMITS['Kd']:g}", p["K"])
    def real(k, v):  # a prior parameter given as text that is no number: one line naming it (issue 22 §4)
        try:
            v = float(v)
        except (TypeError, ValueError):
            raise InputError(f"{flag('prior_param')} {k}", "a finite number", v) from None
        if not math.isfinite(v):
            raise InputError(f"{flag('prior_param')} {k}", "a finite number", v)
        return v

    for k in ("best_low", "best_high", "gap_low", "gap_high", "low", "high"):
        if k in p:
            p[k] = real(k, p[k])
    if name == "uniform-gaps":
        if not (p["best_low"] <= p["best_high"] and 0 <= p["gap_low"] <= p["gap_high"]):
            raise InputError("uniform-gaps", "best_low <= best_high and 0 <= gap_low <= gap_high",
                             {k: p[k] for k in ("best_low", "best_high", "gap_low", "gap_high")})
        if p["family"] == "bernoulli" and not (p["best_high"] <= 1 and p["best_low"] - p["gap_high"] >= 0):
            raise InputError("uniform-gaps", "means in [0, 1] for Bernoulli arms: best_high <= 1 and best_low - "
                             "gap_high >= 0", {k: p[k] for k in ("best_low", "best_high", "gap_high")})
    if name == "uniform-means":
        if not p["low"] <= p["high"]:
            raise InputError("uniform-means", "low <= high", (p["low"], p["high"]))
        if p["family"] == "bernoulli" and not (0 <= p["low"] and p["high"] <= 1):
            raise InputError("uniform-means", "0 <= low <= high <= 1 for Bernoulli arms", (p["low"], p["high"]))
    if "family" in p:
        p["family"] = _choice("family", p["family"], FINITE_FAMILIES)
    if name == "sphere":
        if setting == "glm":
            p["sigma"] = _pos("sigma", p["sigma"])
            if p["radius"] is None:
                p["radius"] = glm_default_scale(p["sigma"])
        p["radius"] = real("radius", p["radius"])
        if not p["radius"] >= 0:
            raise InputError(f"{flag('prior_param')} radius", "a finite number >= 0", p["radius"])
    return Prior(name, setting, p)


__all__ = ["SCHEMA", "SETTINGS", "Instance", "load_instance", "save_instance", "Prior",
           "make_prior", "PRIORS", "PRIOR_DOCS", "load_actions", "to_toml"]
