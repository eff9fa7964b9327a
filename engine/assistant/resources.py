"""The rules assistant's resources: every clause (``arbiter://clause/<ID>``: wording, citations, ruling) and
every seed document (``arbiter://seed/<KEY>``, verbatim), one by one and as URI templates.

>>> read_resource("arbiter://seed/004")[0].name
'seed 004'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from attrs import frozen

from engine.assistant.tools import TEXT_WIDTH
from engine.errors import InputError
from engine.query import rulesref
from engine.spec import seed_document, seed_index

__all__ = [
    "RESOURCE_PREFIX",
    "Resource",
    "ResourceTemplate",
    "read_resource",
    "resource_templates",
    "resources",
]

RESOURCE_PREFIX = "arbiter://"


@frozen
class Resource:
    """One readable document: ``uri``, ``name``, ``description``, MIME type, and a reader for its text."""

    uri: str
    name: str
    description: str
    mime_type: str
    read: Callable[[], str]


def resources() -> list[Resource]:
    """Every clause and every seed document, as readable resources.

    >>> names = [r.uri for r in resources()]
    >>> "arbiter://clause/T6-PLACE-2" in names, "arbiter://seed/004" in names
    (True, True)
    """
    out: list[Resource] = []
    for clause in rulesref.select():

        def read(c: Any = clause) -> str:
            return "\n".join(rulesref.clause_lines(c, width=TEXT_WIDTH))

        out.append(
            Resource(
                f"{RESOURCE_PREFIX}clause/{clause.id}",
                clause.id,
                f"{clause.game} · {clause.topic}: {clause.text}",
                "text/plain",
                read,
            )
        )
    for key, seed in seed_index().items():

        def read_seed(k: str = key) -> str:
            return seed_document(k)

        mime = "text/markdown" if seed.file.endswith(".md") else "text/plain"
        out.append(
            Resource(
                f"{RESOURCE_PREFIX}seed/{key}",
                f"seed {key}",
                f"{seed.title} ({seed.language}), verbatim",
                mime,
                read_seed,
            )
        )
    return out


@frozen
class ResourceTemplate:
    """A family of resources: ``uri_template`` (RFC 6570, one variable), ``name``, ``description``, MIME
    type."""

    uri_template: str
    name: str
    description: str
    mime_type: str


def resource_templates() -> list[ResourceTemplate]:
    """The resources as templates: a clause by id, a seed document by key (read with :func:`read_resource`).

    >>> [t.uri_template for t in resource_templates()]
    ['arbiter://clause/{id}', 'arbiter://seed/{key}']
    """
    return [
        ResourceTemplate(
            f"{RESOURCE_PREFIX}clause/{{id}}",
            "clause",
            "One rule clause by id (T6-PLACE-2, SP-COST-4): our wording, every seed passage it cites "
            "verbatim, the ruling and the variant for the other reading where the seeds disagree",
            "text/plain",
        ),
        ResourceTemplate(
            f"{RESOURCE_PREFIX}seed/{{key}}",
            "seed document",
            "One seed document (a published rule book) by key (001..004), verbatim",
            "text/plain",
        ),
    ]


def read_resource(uri: str) -> tuple[Resource, str]:
    """The resource at ``uri`` and its text; InputError naming ``uri`` when there is none.

    >>> read_resource("arbiter://clause/T6-DECK-1")[1].splitlines()[0].startswith("T6-DECK-1")
    True
    """
    for r in resources():
        if r.uri == uri:
            return r, r.read()
    raise InputError(
        "uri",
        f"no resource {uri!r} (clauses are {RESOURCE_PREFIX}clause/ID, seeds {RESOURCE_PREFIX}seed/KEY)",
    )
