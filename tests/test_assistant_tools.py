"""The assistant's tools without the protocol (``engine.assistant.tools``): schemas made from the question
registry, answers equal to the library's, errors naming the field, and docs/assistant.md's examples."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from engine.assistant.resources import read_resource, resources
from engine.assistant.tools import call, tools
from engine.errors import InputError
from engine.jsonio import FileAccess
from engine.query.questions import all_questions

ROOT = Path(__file__).resolve().parent.parent
AT_ROOT = FileAccess.under(ROOT)
"""The file policy of `arbiter mcp --root` at the repository (the examples are read relative to it)."""
DOC = (ROOT / "docs" / "assistant.md").read_text(encoding="utf-8")


def test_every_schema_is_a_valid_json_schema_naming_the_questions_parameters() -> None:
    """Each tool's input schema is valid JSON Schema; an ask_* schema lists exactly its question's
    parameters, the required ones required."""
    questions = all_questions()
    for tool in tools():
        Draft202012Validator.check_schema(tool.schema)
        kind = {"search_rules": "search", "get_rule": "rule"}.get(tool.name, tool.name.removeprefix("ask_"))
        if kind in questions:
            q = questions[kind]
            assert list(tool.schema["properties"]) == [p.name for p in q.params]
            assert tool.schema["required"] == [p.name for p in q.params if p.required]


def test_tool_answers_equal_the_library() -> None:
    """A tool returns the same answer as ``engine.query.ask`` (T6-PLACE-1 here)."""
    from engine.query import ask

    args = {"card": 33, "rows": ["12 14 19", "30", "29 41 52 60 71", "88"]}
    assert call("ask_row", args).data == ask("row", args).to_json()


def test_unknown_tool_names_the_name() -> None:
    """An unknown tool is an InputError naming ``name`` and listing the tools."""
    with pytest.raises(InputError, match=r"^name: unknown tool 'nope' \(known: search_rules"):
        call("nope", {})


def test_resources_read_back() -> None:
    """Every resource reads as non-empty text; an unknown URI is an InputError naming ``uri``."""
    for r in resources():
        assert read_resource(r.uri)[1].strip(), r.uri
    with pytest.raises(InputError, match=r"^uri: "):
        read_resource("arbiter://clause/NOPE-1")


def test_card_cost_tries_every_displacement() -> None:
    """A trading card's cost in a position is derived for each card it may displace (SP-TRADE-1,
    SP-COST-7), cheapest first; a seat outside the game is refused naming ``player``."""
    position = "@docs/examples/petersburg-gold-smelter.json"
    result = call("card_cost", {"position": position, "player": 1, "card": "Winter Palace"}, access=AT_ROOT)
    options = result.data["displace_options"]
    assert [o["cost"] for o in options] == sorted(o["cost"] for o in options)
    assert len(options) == 2 and result.data["value"]["cost"] == options[0]["cost"]
    with pytest.raises(InputError, match=r"^player: "):
        call("card_cost", {"position": position, "player": 2, "card": "Market"}, access=AT_ROOT)


def test_docs_worked_example_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/assistant.md: the Gold Smelter call gives the value and the clauses the page shows (SP-COST-7)."""
    monkeypatch.chdir(ROOT)
    call_block = re.search(r"```json assistant-call\n(.*?)```", DOC, re.S)
    value_block = re.search(r"```json assistant-value\n(.*?)```", DOC, re.S)
    clauses = re.search(r"^clauses: (.*)$", DOC, re.M)
    assert call_block and value_block and clauses
    request = json.loads(call_block.group(1))
    result = call(request["tool"], request["arguments"], access=AT_ROOT)
    value = json.loads(value_block.group(1))
    assert {k: result.data["value"][k] for k in value} == value
    assert result.data["clauses"] == clauses.group(1).split(", ")


def test_docs_error_table_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/assistant.md: each row of the error table is the error the tool gives."""
    monkeypatch.chdir(ROOT)
    rows = re.findall(r"^\| `(\w+) (\{.*?\})` \| `(.*?)` \|$", DOC, re.M)
    assert len(rows) >= 3
    for name, args, text in rows:
        with pytest.raises(InputError) as err:
            call(name, json.loads(args))
        assert str(err.value) == text


def test_docs_completion_transcript_holds() -> None:
    """docs/assistant.md: each completion request shown gets the response shown (the values, their total,
    whether more fit)."""
    from engine.assistant.completion import complete

    requests = re.findall(r"```json completion-request\n(.*?)```", DOC, re.S)
    responses = re.findall(r"```json completion-response\n(.*?)```", DOC, re.S)
    assert len(requests) == len(responses) >= 2
    for request_text, response_text in zip(requests, responses, strict=True):
        request, response = json.loads(request_text), json.loads(response_text)
        assert request["id"] == response["id"]
        params = request["params"]
        ref = params["ref"]
        kind, name = ("prompt", ref["name"]) if ref["type"] == "ref/prompt" else ("resource", ref["uri"])
        context = (params.get("context") or {}).get("arguments") or {}
        values, total = complete(kind, name, params["argument"]["name"], params["argument"]["value"], context)
        shown = response["result"]["completion"]
        assert (values, total, total > len(values)) == (shown["values"], shown["total"], shown["hasMore"])


def test_an_answer_resting_on_a_ruling_says_so_to_the_client() -> None:
    """SP-END-6: the assistant's standings answer marks the ruling it rests on, in its text (the marked line
    with the option for the other reading) and in its structured result (``rulings``, the step's
    ``ruling``), valid against the tool's output schema."""
    import jsonschema

    from engine.assistant.tools import tool_index

    args = {"game": "petersburg", "scores": [23, 23], "money": [30, 19]}
    result = call("ask_standings", args)
    assert "! ruling SP-END-6:" in result.text and "option keep_roubles=false`" in result.text
    assert [r["id"] for r in result.data["rulings"]] == ["SP-END-6"]
    assert any(s["ruling"] and s["ruling"]["id"] == "SP-END-6" for s in result.data["steps"])
    jsonschema.validate(result.data, tool_index()["ask_standings"].output_schema)

