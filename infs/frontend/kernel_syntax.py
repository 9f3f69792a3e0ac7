"""What the Python kernel front end reads of Python's ``ast``, beyond the code generator.

Takes statements and expressions of a kernel's body; gives the words its
one-line errors name unsupported statements and expressions by, the names a
block of statements binds (which become loop-carried or branch results), and
whether an expression or an ``if``'s branches are pure (evaluating them when
Python would not changes nothing, so they may become ``arith.select``).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

STATEMENT_WORDS = {
    "While": "'while' loop (only 'for ... in range(...)' loops)",
    "Break": "'break'",
    "Continue": "'continue'",
    "Try": "'try'",
    "TryStar": "'try'",
    "With": "'with'",
    "AsyncWith": "'async with'",
    "AsyncFor": "'async for'",
    "FunctionDef": "nested function definition",
    "AsyncFunctionDef": "nested function definition",
    "ClassDef": "class definition",
    "Import": "'import' inside the kernel",
    "ImportFrom": "'import' inside the kernel",
    "Global": "'global'",
    "Nonlocal": "'nonlocal'",
    "Delete": "'del'",
    "Raise": "'raise'",
    "Assert": "'assert'",
    "Match": "'match'",
}


def assigned_names(stmts: Sequence[ast.stmt]) -> tuple[set[str], set[str]]:
    """Names the statements bind by assignment, and names bound only as ``for`` targets."""
    assigned: set[str] = set()
    targets: set[str] = set()
    for s in stmts:
        for n in ast.walk(s):
            if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                for t in n.targets if isinstance(n, ast.Assign) else [n.target]:
                    for x in ast.walk(t):
                        if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Store):
                            assigned.add(x.id)
            elif isinstance(n, ast.For) and isinstance(n.target, ast.Name):
                targets.add(n.target.id)
            elif isinstance(n, ast.NamedExpr):
                assigned.add(n.target.id)
    return assigned, targets - assigned



def pure_expr(node: ast.expr) -> bool:
    """Evaluating it when Python would not changes nothing: no array access, no
    integer division (which may trap), no call but the pure builtins."""
    for n in ast.walk(node):
        if isinstance(n, ast.Subscript) and not (isinstance(n.value, ast.Attribute) and n.value.attr == "shape"):
            return False
        if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.FloorDiv, ast.Mod)):
            return False
        if isinstance(n, ast.Call) and not (isinstance(n.func, ast.Name) and n.func.id in ("min", "max", "abs", "float", "len")):
            return False
    return True


def pure_stmts(stmts: Sequence[ast.stmt]) -> bool:
    for s in stmts:
        if isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = s.targets if isinstance(s, ast.Assign) else [s.target]
            if not all(isinstance(t, ast.Name) for t in targets) or s.value is None or not pure_expr(s.value):
                return False
            if isinstance(s, ast.AugAssign) and isinstance(s.op, (ast.FloorDiv, ast.Mod)):
                return False
        elif isinstance(s, ast.If):
            if not (pure_expr(s.test) and pure_stmts(s.body) and pure_stmts(s.orelse)):
                return False
        elif not isinstance(s, ast.Pass):
            return False
    return True



def call_name(node: ast.Call) -> str:
    try:
        return f"'{ast.unparse(node.func)}'"
    except Exception:  # noqa: BLE001
        return "a function"


def expr_word(node: ast.AST) -> str:
    words = {
        "Lambda": "lambda", "ListComp": "list comprehension", "SetComp": "set comprehension",
        "DictComp": "dict comprehension", "GeneratorExp": "generator expression", "List": "list",
        "Tuple": "tuple", "Dict": "dict", "Set": "set", "JoinedStr": "f-string", "Await": "await",
        "Yield": "yield", "YieldFrom": "yield from", "NamedExpr": "':=' assignment", "Starred": "starred expression",
        "Slice": "slice",
    }  # fmt: skip
    w = words.get(type(node).__name__)
    if w:
        return w
    try:
        return f"'{ast.unparse(node)}'"
    except Exception:  # noqa: BLE001
        return type(node).__name__
