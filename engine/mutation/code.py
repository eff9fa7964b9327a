"""Code mutants: an AST rewrite of one node of a rule module.

A comparison flipped or loosened (``<`` / ``<=``, ``==`` / ``!=``, ``in`` / ``not in``), arithmetic swapped
(``+`` / ``-``, ``*`` / ``//``), an integer constant moved by one, ``True`` / ``False`` swapped, ``and`` /
``or`` swapped, a ``not`` dropped.  Docstrings, annotations and message texts are not mutated.

>>> [m.describe() for m in code_mutants("x", "def f(a):\\n    return a < 2\\n")]
['x:2: a < 2 -> a <= 2', 'x:2: a < 2 -> a < 3']
"""

from __future__ import annotations

import ast
import copy
import functools
from collections.abc import Iterator
from typing import Any

from engine.mutation.mutant import Mutant

__all__ = ["code_mutants"]

_CMP_SWAP: dict[type, tuple[type, ...]] = {
    ast.Lt: (ast.LtE,),
    ast.LtE: (ast.Lt,),
    ast.Gt: (ast.GtE,),
    ast.GtE: (ast.Gt,),
    ast.Eq: (ast.NotEq,),
    ast.NotEq: (ast.Eq,),
    ast.In: (ast.NotIn,),
    ast.NotIn: (ast.In,),
    ast.Is: (ast.IsNot,),
    ast.IsNot: (ast.Is,),
}
_BIN_SWAP: dict[type, type] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv,
}


def _skipped_nodes(tree: ast.AST) -> set[int]:
    """Ids of nodes never mutated: docstrings, annotations, f-strings, ``__all__``."""
    skip: set[int] = set()

    def mark(node: ast.AST | None) -> None:
        if node is not None:
            skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                mark(body[0])
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            mark(node.returns)
            for arg in [*node.args.args, *node.args.kwonlyargs, *node.args.posonlyargs]:
                mark(arg.annotation)
        if isinstance(node, ast.AnnAssign):
            mark(node.annotation)
        if isinstance(node, ast.JoinedStr):
            mark(node)
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            mark(node)
    return skip


def _variants(node: ast.AST) -> Iterator[ast.AST]:
    """The mutated copies of one node (no children changed)."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        for op in _CMP_SWAP.get(type(node.ops[0]), ()):
            new = copy.copy(node)
            new.ops = [op()]
            yield new
    elif isinstance(node, ast.BinOp) and type(node.op) in _BIN_SWAP:
        new_bin = copy.copy(node)
        new_bin.op = _BIN_SWAP[type(node.op)]()
        yield new_bin
    elif isinstance(node, ast.AugAssign) and type(node.op) in _BIN_SWAP:
        new_aug = copy.copy(node)
        new_aug.op = _BIN_SWAP[type(node.op)]()
        yield new_aug
    elif isinstance(node, ast.BoolOp):
        new_bool = copy.copy(node)
        new_bool.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        yield new_bool
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield node.operand
    elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
        yield ast.Constant(not node.value)
    elif isinstance(node, ast.Constant) and isinstance(node.value, int):
        yield ast.Constant(node.value + 1)


def _replace(tree: ast.AST, target: ast.AST, new: ast.AST) -> ast.AST:
    class Swap(ast.NodeTransformer):
        def visit(self, node: ast.AST) -> Any:
            if node is target:
                return ast.copy_location(new, node)
            return self.generic_visit(node)

    result: ast.AST = Swap().visit(tree)
    return result


def code_mutants(path: str, source: str) -> list[Mutant]:
    """Every code mutant of one Python file, in source order.  A constant is shown in the expression that
    holds it (``a < 2 -> a < 3``), so the description says which ``1`` became ``2``."""
    tree = ast.parse(source)
    skip = _skipped_nodes(tree)
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    out: list[Mutant] = []
    for index, node in enumerate(ast.walk(tree)):
        if id(node) in skip or not hasattr(node, "lineno"):
            continue
        context: ast.AST = node
        if isinstance(node, ast.Constant):
            up = parents.get(id(node))
            if isinstance(up, ast.UnaryOp):
                context, up = up, parents.get(id(up))
            if isinstance(up, ast.expr | ast.Assign | ast.AugAssign | ast.Return | ast.keyword):
                context = up
        for number, new in enumerate(_variants(node)):
            clone = copy.deepcopy(context)
            shown = _replace(clone, _find(context, node, clone), new)
            out.append(
                Mutant(
                    path,
                    node.lineno,
                    _short(context),
                    _short(shown) if context is not node else _short(new),
                    functools.partial(_mutated_source, source, index, number),
                    (_short(node), _short(new)),
                )
            )
    out.sort(key=lambda m: m.line)
    return out


def _find(original: ast.AST, node: ast.AST, clone: ast.AST) -> ast.AST:
    """The node of ``clone`` at the place of ``node`` in ``original`` (same walk order)."""
    for a, b in zip(ast.walk(original), ast.walk(clone), strict=True):
        if a is node:
            return b
    raise LookupError(node)  # pragma: no cover - node comes from original


def _mutated_source(source: str, index: int, number: int) -> str:
    """``source`` with variant ``number`` of the ``index``-th node (in ``ast.walk`` order) put in."""
    tree = ast.parse(source)
    node = next(n for i, n in enumerate(ast.walk(tree)) if i == index)
    new = list(_variants(node))[number]
    return ast.unparse(_replace(tree, node, new))


def _short(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 70 else text[:67] + "..."
