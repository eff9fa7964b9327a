"""A fast yes/no checker for the subset of JSON Schema (2020-12) that the shipped schemas use.

``jsonschema`` explains *why* a document is invalid, but checking every line of a large record with it costs
milliseconds (each ``$ref`` is resolved anew).  :func:`compile_schema` turns a schema into nested closures
that answer only *whether* a document is valid, about a hundred times faster.  It is the one source of
truth: the record reader calls it, and asks ``jsonschema`` (configured with the same reading of ``integer``:
an integer literal, never ``2.0`` or ``true``; see :data:`engine.conformance.records.format.Validator`)
only to explain a refusal.  A test checks that both agree on good and mutated documents.  (A compiled
validator, fastjsonschema, was measured at twice the time per record line, since it answers by raising.)

Common shapes are fused into one function each: an object with ``properties`` / ``required`` /
``additionalProperties`` (one loop over its items), a ``oneOf`` of objects told apart by a ``type`` constant
(only the named branch is checked), an array of bounded integers (C-level type, ``min`` and ``max`` scans).

Supported keywords: ``type``, ``const``, ``enum``, ``properties``, ``required``, ``additionalProperties``,
``items``, ``prefixItems``, ``minItems``, ``maxItems``, ``minimum``, ``maximum``, ``minLength``, ``pattern``,
``oneOf``, ``anyOf``, ``allOf`` and local ``$ref`` (``#/$defs/name``); annotations are ignored.  Any other
keyword fails loudly at compile time, so a schema cannot silently outgrow the checker.

>>> ok = compile_schema({"type": "array", "items": {"type": "integer", "minimum": 1}})
>>> ok([1, 2]), ok([0]), ok([True])
(True, False, False)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from engine.errors import SpecError

__all__ = ["Check", "compile_schema"]

Check = Callable[[Any], bool]

ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "title", "description", "default", "examples",
                         "$comment"})


EXACT_TYPES: dict[str, type] = {"integer": int, "string": str, "boolean": bool, "null": type(None),
                               "array": list, "object": dict}
"""JSON type → the one Python type a parsed document holds for it (``number`` is int or float)."""


def _is_type(value: Any, name: str) -> bool:
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if name == "string":
        return isinstance(value, str)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if name == "array":
        return isinstance(value, list)
    if name == "object":
        return isinstance(value, dict)
    raise SpecError(f"schema: unknown type {name!r}")


def _json_equal(a: Any, b: Any) -> bool:
    """Equality as JSON sees it: ``true`` is not ``1``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    return (type(a) is type(b) and a == b) or (
        isinstance(a, int | float) and isinstance(b, int | float) and a == b
    )


def compile_schema(schema: Any, root: Mapping[str, Any] | None = None) -> Check:
    """Compile ``schema`` (refs resolved against ``root``, default the schema itself) into a checker."""
    top = root if root is not None else schema
    cache: dict[str, Check] = {}

    def ref(pointer: str) -> Check:
        if not pointer.startswith("#/$defs/"):
            raise SpecError(f"schema: only local '#/$defs/...' references are supported, got {pointer!r}")
        name = pointer[len("#/$defs/"):]
        if name not in cache:
            defs = top.get("$defs", {})
            if name not in defs:
                raise SpecError(f"schema: dangling reference {pointer!r}")
            slot: list[Check] = []
            cache[name] = lambda v: slot[0](v)  # noqa: PLW0108 - placeholder until built (recursion)
            slot.append(build(defs[name]))
            cache[name] = slot[0]
        built = cache[name]
        return built

    def fused_integer(node: Mapping[str, Any]) -> Check | None:
        """``{"type": "integer", "minimum": a, "maximum": b}`` (either bound optional) as one comparison."""
        if node.get("type") != "integer" or set(node) - ANNOTATIONS - {"type", "minimum", "maximum"}:
            return None
        lo, hi = node.get("minimum"), node.get("maximum")
        if lo is not None and hi is not None:
            return lambda v: type(v) is int and lo <= v <= hi
        if lo is not None:
            return lambda v: type(v) is int and v >= lo
        if hi is not None:
            return lambda v: type(v) is int and v <= hi
        return lambda v: type(v) is int

    def fused_string(node: Mapping[str, Any]) -> Check | None:
        """``{"type": "string", "minLength": n}`` as one comparison."""
        if node.get("type") != "string" or set(node) - ANNOTATIONS - {"type", "minLength"}:
            return None
        n = node.get("minLength", 0)
        return lambda v: type(v) is str and len(v) >= n

    def int_bounds(node: Any) -> tuple[Any, Any] | None:
        """``(minimum, maximum)`` of a plain integer schema (refs followed), else ``None``."""
        seen = 0
        while isinstance(node, dict) and set(node) - ANNOTATIONS == {"$ref"} and seen < 20:
            node = top.get("$defs", {}).get(str(node["$ref"])[len("#/$defs/"):])
            seen += 1
        if not isinstance(node, dict) or node.get("type") != "integer":
            return None
        if set(node) - ANNOTATIONS - {"type", "minimum", "maximum"}:
            return None
        return node.get("minimum"), node.get("maximum")

    def fused_array(node: Mapping[str, Any]) -> Check | None:
        """``{"type": "array", "items": X}`` as one loop; integer items as C-level type, min and max
        scans."""
        if node.get("type") != "array" or set(node) - ANNOTATIONS - {"type", "items"} or "items" not in node:
            return None
        bounds = int_bounds(node["items"])
        if bounds is not None:
            lo, hi = bounds
            only_int = {int}

            def ints(v: Any) -> bool:
                if type(v) is not list:
                    return False
                if not v:
                    return True
                if set(map(type, v)) != only_int:
                    return False
                return (lo is None or min(v) >= lo) and (hi is None or max(v) <= hi)

            return ints
        item = build(node["items"])
        return lambda v: type(v) is list and all(map(item, v))

    def fused_object(node: Mapping[str, Any]) -> Check | None:
        """``{"type": "object", "properties": ..., "required": ..., "additionalProperties": ...}`` as one
        loop over the object's items."""
        if node.get("type") != "object" or "properties" not in node:
            return None
        if set(node) - ANNOTATIONS - {"type", "properties", "required", "additionalProperties"}:
            return None
        props = {name: build(sub) for name, sub in node["properties"].items()}
        required = tuple(node.get("required", ()))
        extra_node = node.get("additionalProperties", True)
        extra: Check | None = None if extra_node is False else build(extra_node)

        def obj(v: Any) -> bool:
            if type(v) is not dict:
                return False
            for k in required:
                if k not in v:
                    return False
            for k, x in v.items():
                c = props.get(k)
                if c is None:
                    if extra is None or not extra(x):
                        return False
                elif not c(x):
                    return False
            return True

        return obj

    def tagged_one_of(node: Mapping[str, Any]) -> Check | None:
        """``oneOf`` over objects told apart by a required ``type`` constant: only the branch the object's
        tag names can match, so only that one is checked."""
        if set(node) - ANNOTATIONS != {"oneOf"}:
            return None
        by_tag: dict[str, Check] = {}
        for branch in node["oneOf"]:
            resolved = branch
            if isinstance(branch, dict) and set(branch) - ANNOTATIONS == {"$ref"}:
                resolved = top.get("$defs", {}).get(str(branch["$ref"])[len("#/$defs/"):])
            if not isinstance(resolved, dict) or "type" not in resolved.get("required", ()):
                return None
            tag = resolved.get("properties", {}).get("type", {}).get("const")
            if not isinstance(tag, str) or tag in by_tag:
                return None
            by_tag[tag] = build(branch)

        def one(v: Any) -> bool:
            if type(v) is not dict:
                return False
            tag = v.get("type")
            check = by_tag.get(tag) if type(tag) is str else None
            return check is not None and check(v)

        return one

    def build(node: Any) -> Check:
        if node is True or node == {}:
            return lambda v: True
        if node is False:
            return lambda v: False
        if not isinstance(node, dict):
            raise SpecError(f"schema: expected an object, got {node!r}")
        fused = (fused_integer(node) or fused_array(node) or fused_string(node) or fused_object(node)
                 or tagged_one_of(node))
        if fused is not None:
            return fused
        if set(node) - ANNOTATIONS == {"$ref"}:
            target = node["$ref"]
            resolved = ref(target)
            return resolved
        checks: list[Check] = []
        for key, arg in node.items():
            if key in ANNOTATIONS:
                continue
            checks.append(keyword(key, arg, node))
        if len(checks) == 1:
            return checks[0]
        return lambda v: all(c(v) for c in checks)

    def keyword(key: str, arg: Any, node: Mapping[str, Any]) -> Check:
        if key == "$ref":
            return ref(arg)
        if key == "type":
            names = arg if isinstance(arg, list) else [arg]
            for n in names:
                _is_type(None, n)
            exact = tuple(EXACT_TYPES[n] for n in names if n in EXACT_TYPES)
            if len(exact) == len(names):  # parsed JSON holds exactly these types: one C-level test
                return lambda v: type(v) in exact
            return lambda v: any(_is_type(v, n) for n in names)
        if key == "const":
            if type(arg) in (str, int):  # the usual tag: one type test and one comparison
                kind = type(arg)
                return lambda v: type(v) is kind and v == arg
            return lambda v: _json_equal(v, arg)
        if key == "enum":
            if all(type(x) is str for x in arg):  # names: one set lookup
                allowed = frozenset(arg)
                return lambda v: type(v) is str and v in allowed
            return lambda v: any(_json_equal(v, x) for x in arg)
        if key == "properties":
            props = {name: build(sub) for name, sub in arg.items()}
            return lambda v: not isinstance(v, dict) or all(props[k](v[k]) for k in props if k in v)
        if key == "required":
            return lambda v: not isinstance(v, dict) or all(k in v for k in arg)
        if key == "additionalProperties":
            known = frozenset(node.get("properties", {}))
            if "patternProperties" in node:
                raise SpecError("schema: patternProperties is not supported")
            if arg is False:
                return lambda v: not isinstance(v, dict) or all(k in known for k in v)
            extra = build(arg)
            return lambda v: not isinstance(v, dict) or all(extra(x) for k, x in v.items() if k not in known)
        if key == "items":
            item = build(arg)
            skip = len(node.get("prefixItems", []))
            if skip:
                return lambda v: not isinstance(v, list) or all(map(item, v[skip:]))
            return lambda v: not isinstance(v, list) or all(map(item, v))
        if key == "prefixItems":
            firsts = [build(sub) for sub in arg]
            return lambda v: not isinstance(v, list) or all(c(x) for c, x in zip(firsts, v, strict=False))
        if key == "minItems":
            return lambda v: not isinstance(v, list) or len(v) >= arg
        if key == "maxItems":
            return lambda v: not isinstance(v, list) or len(v) <= arg
        if key == "minimum":
            return lambda v: not _is_type(v, "number") or v >= arg
        if key == "maximum":
            return lambda v: not _is_type(v, "number") or v <= arg
        if key == "minLength":
            return lambda v: not isinstance(v, str) or len(v) >= arg
        if key == "pattern":
            rx = re.compile(arg)
            return lambda v: not isinstance(v, str) or rx.search(v) is not None
        if key == "oneOf":
            subs = [build(sub) for sub in arg]
            return lambda v: sum(1 for s in subs if s(v)) == 1
        if key == "anyOf":
            subs = [build(sub) for sub in arg]
            return lambda v: any(s(v) for s in subs)
        if key == "allOf":
            subs = [build(sub) for sub in arg]
            return lambda v: all(s(v) for s in subs)
        raise SpecError(f"schema: keyword {key!r} is not supported by the fast checker")

    return build(schema)
