"""boundcalc's one parser of expression text (issue 23 item 4): formulas and relations written as text become
sympy expressions here, and nowhere else.

Sources: no formula is written here; the texts parsed are the bounds' own (each cites its Theorem / Eq. in its
``source``), a plugin's (its own ``source``), a claim's assumptions, or the user's ``check`` expression.

Three readers share it:

* the bound language (:func:`parse_bound_text`): a plugin's ``nonprivate`` / ``privacy_cost`` / ``assumptions``
  (boundcalc.bounds.declared) and the built-in bounds declared as data (boundcalc.bounds.finite's table): numbers,
  the allowed symbols, ``+ - * / **``, unary minus, the functions of :data:`FUNCTIONS`, the constants
  :data:`CONSTANTS`, and one comparison in an assumption;
* relations over names (:func:`parse_relation`): a built-in bound's ``requires`` and a claim's ``assumptions``
  (boundcalc.bounds.base.requirement_relations, boundcalc.verify.claims.registry), and their float values without
  sympy (:func:`evaluate_float`, for ``conditions``);
* ``check``'s restricted language (boundcalc.verify.expression): the text is read into a syntax tree by
  :func:`parse_tree` with its size limits, and its literals become exact numbers by :func:`exact_number`; the
  walk that builds numpy / mpmath / exact evaluators from that tree (with the domains of boundcalc.domains) is
  check's own.

The text is never evaluated as Python (no ``eval``, no sympy text parser): Python's ``ast`` reads it, the tree is
walked against a whitelist, and sympy objects are built node by node (decimals as exact rationals, or, for the
package's own relations, as the sympy Float sympify would give, so that printed relations are unchanged).
"""

from __future__ import annotations

import ast
import functools
from typing import Any, Callable, Iterable

# the bound language: function name in the text -> sympy attribute; constants
FUNCTIONS = {"log": "log", "sqrt": "sqrt", "exp": "exp", "min": "Min", "max": "Max", "ceiling": "ceiling",
             "floor": "floor"}
CONSTANTS = ("pi", "E")
# the functions a relation (``requires``, a claim's assumption) may call
RELATION_FUNCTIONS = ("log", "sqrt", "exp", "min", "max")
MAX_LENGTH = 2000  # characters of a bound text
MAX_EXPONENT = 1000  # a constant exponent beyond this is refused (9**9**9 is never built), as in check


class ExpressionError(ValueError):
    """A text that is not in the language; ``kind`` says which rule failed ("syntax", "depth", "nodes", or
    "rule" for the bound language's whitelist), ``offset`` the column of a syntax error. The callers word it
    (a PluginError naming the plugin, an InputError naming ``expression``)."""

    def __init__(self, message: str, kind: str = "rule", offset: int | None = None):
        super().__init__(message)
        self.kind = kind
        self.offset = offset


def parse_tree(text: str, max_depth: int | None = None, max_nodes: int | None = None) -> ast.Expression:
    """The syntax tree of ``text`` (one Python expression), with the size limits checked iteratively before any
    walk: nesting depth ``max_depth`` (+3 for the comparison, ``and`` and keyword levels) and ``max_nodes`` nodes
    (numbers, names, operators and calls). ExpressionError kinds: "syntax" (message = the parser's, ``offset``),
    "depth", "nodes"."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise ExpressionError(exc.msg, "syntax", exc.offset) from None
    except (RecursionError, MemoryError, ValueError):
        raise ExpressionError("too deeply nested", "depth") from None
    if max_depth is None and max_nodes is None:
        return tree
    nodes, stack = 0, [(tree.body, 0)]
    while stack:
        node, d = stack.pop()
        if isinstance(node, (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)):
            continue
        nodes += 1
        if max_depth is not None and d > max_depth + 3:
            raise ExpressionError("too deeply nested", "depth")
        if max_nodes is not None and nodes > max_nodes:
            raise ExpressionError("too many nodes", "nodes")
        stack.extend((c, d + 1) for c in ast.iter_child_nodes(node))
    return tree


def exact_number(src: str, value: float):
    """A literal exactly as written (0.1 is 1/10, not the nearest double), as a sympy Rational."""
    import sympy

    try:
        return sympy.Rational(src.replace("_", ""))
    except (TypeError, ValueError):
        return sympy.Rational(value)


# -- the bound language ------------------------------------------------------------------------------------------
_ALLOWED_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow,
                  ast.USub, ast.UAdd, ast.Constant, ast.Name, ast.Load, ast.Call)
_COMPARE_NODES = (ast.Compare, ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def whitelist(tree: ast.Expression, text: str, allowed: Iterable[str] | None, what: str, relation: bool = False,
              functions: Iterable[str] = tuple(FUNCTIONS)) -> None:
    """Walk ``tree`` against the bound language's whitelist; ExpressionError (worded "<what>: ...") else.
    ``allowed``: the symbols the text may use (None: any name that is not a function)."""
    functions = tuple(functions)
    ok_nodes = _ALLOWED_NODES + (_COMPARE_NODES if relation else ())
    called = {id(c.func) for c in ast.walk(tree) if isinstance(c, ast.Call)}
    for node in ast.walk(tree):
        if not isinstance(node, ok_nodes):
            extra = " (use ** for powers)" if isinstance(node, ast.BitXor) else ""
            raise ExpressionError(f"{what}: {type(node).__name__} is not allowed in {text!r}{extra}")
        if isinstance(node, ast.Constant) and (isinstance(node.value, bool) or not isinstance(node.value, (int, float))):
            raise ExpressionError(f"{what}: only numbers are allowed as constants, got {node.value!r}")
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in functions or node.keywords:
                name = node.func.id if isinstance(node.func, ast.Name) else ast.unparse(node.func)
                raise ExpressionError(f"{what}: unknown function {name!r}; allowed: {', '.join(functions)}")
        elif (isinstance(node, ast.Name) and allowed is not None and node.id not in allowed
              and node.id not in CONSTANTS and id(node) not in called):
            raise ExpressionError(f"{what}: unknown symbol {node.id!r}; allowed: {', '.join(allowed)}")
        if isinstance(node, ast.Compare) and len(node.ops) != 1:
            raise ExpressionError(f"{what}: one comparison per assumption, got {text!r}")
    if relation and not isinstance(tree.body, ast.Compare):
        raise ExpressionError(f"{what} must be a relation such as 'rho > 0' (got {text!r})")


_BINOPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
           ast.Div: lambda a, b: a / b, ast.Pow: lambda a, b: a ** b}


def build(node, symbol: Callable[[str], Any], text: str | None = None, decimals: str = "exact"):
    """The sympy expression of an already whitelisted tree: names by ``symbol(name)`` (constants pi, E), calls of
    :data:`FUNCTIONS`; integer literals exact, decimal literals exact rationals (``decimals="exact"``: as written
    when ``text`` is given, else the double's repr) or sympy Floats of the literal as written
    (``decimals="float"``: what sympify gives)."""
    import sympy

    if isinstance(node, ast.Expression):
        return build(node.body, symbol, text, decimals)
    if isinstance(node, ast.Constant):
        v = node.value
        if isinstance(v, int):
            return sympy.Integer(v)
        src = (ast.get_source_segment(text, node) if text is not None else None) or repr(v)
        return sympy.Float(src.replace("_", "")) if decimals == "float" else exact_number(src, v)
    if isinstance(node, ast.Name):
        if node.id == "pi":
            return sympy.pi
        if node.id == "E":
            return sympy.E
        return symbol(node.id)
    if isinstance(node, ast.UnaryOp):
        a = build(node.operand, symbol, text, decimals)
        return -a if isinstance(node.op, ast.USub) else a
    if isinstance(node, ast.BinOp):
        a, b = build(node.left, symbol, text, decimals), build(node.right, symbol, text, decimals)
        if isinstance(node.op, ast.Pow) and b.is_Number and abs(b) > MAX_EXPONENT:
            raise ValueError(f"a constant exponent beyond {MAX_EXPONENT} in magnitude")
        return _BINOPS[type(node.op)](a, b)
    if isinstance(node, ast.Call):
        return getattr(sympy, FUNCTIONS[node.func.id])(*[build(a, symbol, text, decimals) for a in node.args])
    if isinstance(node, ast.Compare):
        rel = {ast.Lt: sympy.Lt, ast.LtE: sympy.Le, ast.Gt: sympy.Gt, ast.GtE: sympy.Ge}[type(node.ops[0])]
        return rel(build(node.left, symbol, text, decimals), build(node.comparators[0], symbol, text, decimals))
    raise TypeError(type(node).__name__)


def real_symbol(name: str):
    import sympy

    return sympy.Symbol(name, real=True)


def positive_symbol(name: str):
    import sympy

    return sympy.Symbol(name, positive=True)


def parse_bound_text(text: Any, allowed: Iterable[str] | None, what: str, relation: bool = False,
                     symbol: Callable[[str], Any] = real_symbol):
    """A text of the bound language as a sympy expression (a relation when ``relation``), over ``allowed``
    symbols made by ``symbol``. ExpressionError (worded "<what> ...") for any text outside the language, one that
    sympy cannot build, one undefined or infinite as written, and a relation that is a constant."""
    import sympy

    allowed = None if allowed is None else tuple(allowed)
    if not isinstance(text, str) or not text.strip():
        raise ExpressionError(f"{what} must be a non-empty string (got {text!r})")
    if len(text) > MAX_LENGTH:
        raise ExpressionError(f"{what} is longer than {MAX_LENGTH} characters")
    try:
        tree = parse_tree(text)
    except ExpressionError as exc:
        if exc.kind != "syntax":
            raise ExpressionError(f"{what} is nested too deeply: {text!r}") from None
        raise ExpressionError(f"{what} is not a valid expression: {text!r} ({exc})") from None
    whitelist(tree, text, allowed, what, relation)
    try:
        out = build(tree.body, symbol, text.strip())
    except Exception as exc:  # noqa: BLE001 - any sympy failure is the text's problem
        raise ExpressionError(f"{what}: cannot build {text!r} ({type(exc).__name__}: {exc})") from None
    if out.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
        raise ExpressionError(f"{what}: {text!r} is undefined or infinite as written ({out})")
    if relation and not isinstance(out, sympy.core.relational.Relational):
        raise ExpressionError(f"{what} is a constant ({out}), not a relation over the symbols")
    return out


def parse_relation(text: str, names: Iterable[str] | None = None):
    """A relation written by the package (a built-in bound's ``requires``, a claim's ``assumptions``) as a sympy
    relation over real symbols, decimals as the sympy Floats sympify gives (printed as written). ``names``: the
    names it may use (None: any). ValueError (an ExpressionError) for anything else."""
    allowed = None if names is None else tuple(names)
    tree = _relation_tree(text)
    whitelist(tree, text, allowed, f"relation {text!r}", relation=True, functions=RELATION_FUNCTIONS)
    return build(tree.body, real_symbol, text.strip(), decimals="float")


def _relation_tree(text: str) -> ast.Expression:
    try:
        return parse_tree(text)
    except ExpressionError as exc:
        raise ExpressionError(f"relation {text!r} is not a valid expression ({exc})", exc.kind, exc.offset) from None


def evaluate_float(text: str, env: dict) -> float:
    """The value of an arithmetic text (numbers, names of ``env``, + - * / **, unary -, calls of functions in
    ``env``) by walking its syntax tree in floats, without sympy (a ``requires`` side in ``conditions``)."""
    import operator

    binops = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
              ast.Pow: operator.pow}

    def walk(node):
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return float(node.value)
        if isinstance(node, ast.Name) and node.id in env:
            return env[node.id]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            x = walk(node.operand)
            return -x if isinstance(node.op, ast.USub) else x
        if isinstance(node, ast.BinOp) and type(node.op) in binops:
            return binops[type(node.op)](walk(node.left), walk(node.right))
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and callable(env.get(node.func.id))
                and not node.keywords):
            return env[node.func.id](*[walk(a) for a in node.args])
        raise ValueError(f"requirement side {text!r}: {type(node).__name__} is not arithmetic over known names")

    return walk(_float_tree(text))


@functools.lru_cache(maxsize=4096)
def _float_tree(text: str) -> ast.Expression:
    """parse_tree(text), parsed once per text: ``evaluate_float`` reads the few ``requires`` sides of the package's
    bounds at every evaluation (``conditions``: once per bound, context and horizon), and the walk never changes the
    tree. A text that does not parse raises each time (lru_cache keeps no exception)."""
    return parse_tree(text)
