"""``arbiter mcp`` driven by the MCP SDK's own client over a real stdio session.

One session (a subprocess running ``python -m engine mcp``) lists the tools and resources and calls every
tool, with good and with bad input; the tests then check what came back.  The answers must be the engine's
(the same values the CLI gives), every bad input must come back as an error naming the field or the rule,
and the server must still answer after each of them.
"""

from __future__ import annotations

import asyncio
import base64
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from extras import need

ROOT = Path(__file__).resolve().parent.parent
SP_STATE = ROOT / "docs" / "examples" / "petersburg-gold-smelter.json"
T6_RECORD = ROOT / "tests" / "data" / "records" / "good-take6-standard-2p.jsonl"
DIVERGE = ROOT / "tests" / "data" / "records" / "diverge-card-not-in-hand.jsonl"


def _take6_position() -> dict[str, Any]:
    from engine.game import get_game

    game = get_game("take6")
    return game.state_to_json(game.new_game(3, seed=4))


GOOD_CALLS: dict[str, dict[str, Any]] = {
    "search_rules": {"text": ["Zar", "Peter"]},
    "get_rule": {"clause_id": "T6-PLACE-2"},
    "ask_mentions": {"term": ["Лесоруб"]},
    "ask_disputed": {"game": "take6"},
    "ask_setup": {"game": "petersburg", "players": 4},
    "ask_end": {"game": "take6"},
    "ask_variants": {"game": "take6"},
    "ask_bullheads": {"cards": [55]},
    "ask_row": {"card": 72, "rows": [[12, 14, 19], [30], [29, 41, 52, 60, 71], [88]]},
    "ask_turn": {"rows": ["20", "30", "40", "50"], "cards": [3, 7, 45], "choose": ["3=0"]},
    "ask_cost": {"card": "Market", "owns": ["Market", "Market"]},
    "ask_displace": {"trading": "Gold Smelter", "target": "Czar and Carpenter"},
    "ask_bonus": {"distinct": 7},
    "ask_card": {"name": "Склад"},
    "ask_handlimit": {"owns": ["Warehouse"]},
    "ask_pub": {"money": 9, "owns": ["Pub"]},
    "ask_final": {"owns": ["Author", "Administrator", "Pope"], "money": 27, "hand": ["Market"]},
    "ask_standings": {"game": "petersburg", "scores": [23, 23], "money": [30, 19]},
    "explain_action": {
        "game": "petersburg",
        "position": f"@{SP_STATE}",
        "action": {
            "type": "buy",
            "player": 0,
            "card": "Gold Smelter",
            "source": "upper",
            "displace": "Gold Miner",
        },
    },
    "legal_actions": {"game": "take6", "position": _take6_position(), "player": 1},
    "card_cost": {"position": f"@{SP_STATE}", "player": 0, "card": "Gold Smelter"},
    "check_record": {"path": str(DIVERGE)},
    "record_position": {"game": "take6", "path": str(T6_RECORD), "upto": 4},
    "render_position": {"game": "take6", "position": _take6_position(), "viewer": 0},
}

# tool -> (arguments, the field or clause the error must name)
BAD_CALLS: dict[str, tuple[dict[str, Any], str]] = {
    "search_rules": ({"text": 5}, "text"),
    "get_rule": ({"clause_id": "T6-NOPE-1"}, "T6-NOPE-1"),
    "ask_mentions": ({}, "term"),
    "ask_disputed": ({"game": "chess"}, "game"),
    "ask_setup": ({"game": "take6", "players": 1}, "T6-SETUP-1"),
    "ask_end": ({"game": "take6", "variant": "nope"}, "variant"),
    "ask_variants": ({"game": 6}, "game"),
    "ask_bullheads": ({"cards": [105]}, "cards"),
    "ask_row": ({"card": "x"}, "card"),
    "ask_turn": ({"rows": [[20], [30], [40], [50]], "cards": [3, 7], "choose": ["3=9"]}, "choose"),
    "ask_cost": ({"card": "Nope"}, "card"),
    "ask_displace": ({"trading": "Nope", "target": "Gold Miner"}, "trading"),
    "ask_bonus": ({"distinct": 3, "extra": 1}, "extra"),
    "ask_card": ({"name": ""}, "name"),
    "ask_handlimit": ({"owns": ["Nope"]}, "owns"),
    "ask_pub": ({"owns": ["Pub"]}, "money"),
    "ask_final": ({"money": "lots"}, "money"),
    "ask_standings": ({"game": "petersburg", "scores": [23, 23], "money": [30]}, "money"),
    "explain_action": ({"game": "take6", "position": {"game": "take6"}, "action": {}}, "position"),
    "legal_actions": ({"game": "take6", "position": "{not json"}, "position"),
    "card_cost": ({"position": f"@{SP_STATE}", "player": 7, "card": "Market"}, "player"),
    "check_record": ({}, "record"),
    "record_position": ({"game": "take6", "path": str(T6_RECORD), "upto": 10_000}, "upto"),
    "render_position": ({"game": "take6", "position": _take6_position(), "viewer": 0, "hand": 1}, "hand"),
}


async def _session() -> dict[str, Any]:
    from mcp import types
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from mcp.shared.exceptions import MCPError

    out: dict[str, Any] = {"good": {}, "bad": {}}
    params = StdioServerParameters(command=sys.executable, args=["-m", "engine", "mcp", "--root", str(ROOT)],
                                    cwd=str(ROOT))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        out["init"] = await session.initialize()
        out["tools"] = (await session.list_tools()).tools
        for name, args in GOOD_CALLS.items():
            out["good"][name] = await session.call_tool(name, args)
        for name, (args, _) in BAD_CALLS.items():
            out["bad"][name] = await session.call_tool(name, args)
        try:
            await session.call_tool("no_such_tool", {})
        except MCPError as exc:
            out["unknown_tool"] = exc
        out["resources"] = (await session.list_resources()).resources
        out["clause"] = await session.read_resource("arbiter://clause/SP-COST-7")
        out["seed"] = await session.read_resource("arbiter://seed/001")
        try:
            await session.read_resource("arbiter://seed/999")
        except MCPError as exc:
            out["unknown_resource"] = exc
        out["templates"] = (await session.list_resource_templates()).resource_templates
        out["prompts"] = (await session.list_prompts()).prompts
        out["prompt_dispute"] = await session.get_prompt("settle_dispute", PROMPT_DISPUTE)
        out["prompt_check"] = await session.get_prompt("check_implementation", {"path": str(DIVERGE)})
        try:
            await session.get_prompt("settle_dispute", {"game": "chess", "position": "x", "question": "q"})
        except MCPError as exc:
            out["bad_prompt"] = exc
        out["flags"] = {name: await session.call_tool(name, args) for name, (args, _) in FLAG_CALLS.items()}
        out["completions"] = {key: await session.complete(ref, argument, context)
                              for key, (ref, argument, context) in _completions().items()}
        try:
            await session.complete(types.PromptReference(name="no_such_prompt"), {"name": "x", "value": ""})
        except MCPError as exc:
            out["bad_completion"] = exc
        out["text_calls"] = {
            key: await session.call_tool(name, args) for key, (name, args) in TEXT_CALLS.items()
        }
        out["after"] = await session.call_tool("ask_bonus", {"distinct": 7})
    return out


def _completions() -> dict[str, tuple[Any, dict[str, str], dict[str, str] | None]]:
    """The completion requests the session sends: reference, argument, context."""
    from mcp import types

    clause = types.ResourceTemplateReference(uri="arbiter://clause/{id}")
    seed = types.ResourceTemplateReference(uri="arbiter://seed/{key}")
    card = types.PromptReference(name="explain_card")
    return {
        "clause": (clause, {"name": "id", "value": "sp-cost"}, None),
        "seed": (seed, {"name": "key", "value": "00"}, None),
        "game": (types.PromptReference(name="settle_dispute"), {"name": "game", "value": ""}, None),
        "card": (card, {"name": "card", "value": "gold"}, None),
        "card_de": (card, {"name": "card", "value": "holzf"}, None),
        "edition_name": (card, {"name": "card", "value": "czar &"}, None),
        "variant": (card, {"name": "variant", "value": ""}, None),
        "rule": (types.PromptReference(name="explain_rule"), {"name": "clause_id", "value": "T6-"},
                 {"game": "take6"}),
        "question": (card, {"name": "question", "value": "what"}, None),
    }


PROMPT_DISPUTE = {
    "game": "take6",
    "position": "standard 2 select 3.10/22/40.41.45/90 5.8.60*61/7.9.70.71 - - 12/0",
    "question": "May P1 play 7 even though it fits no row?",
    "action": '{"type": "select", "player": 1, "card": 7}',
}

# Errors the engine words for the command line, and the tool's names they must use instead.
FLAG_CALLS: dict[str, tuple[dict[str, Any], str]] = {
    "ask_cost": ({"card": "Gold Smelter"}, "(displace)"),
    "explain_action": (
        {"game": "take6", "position": PROMPT_DISPUTE["position"], "action": {"type": "select", "player": 1}},
        "action.card",
    ),
}


# Actions given as text (docs/positions.md, "Actions as text"): the Gold Smelter buy of GOOD_CALLS by its
# text, and a text naming two legal actions (a Market in each row).
SP_BOTH_ROWS = (
    "first 3 building 1 0 0/1/0/1 Market,Pub Market - - 12:4:-:Lumberjack*2,Shepherd:- 30:2:Bank:GoldMiner:-"
)
TEXT_CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    "explain": ("explain_action", {**GOOD_CALLS["explain_action"], "action": "Gold Smelter over Gold Miner"}),
    "ambiguous": ("explain_action", {"game": "petersburg", "position": SP_BOTH_ROWS, "action": "buy Market"}),
    "legal": ("legal_actions", {"game": "petersburg", "position": f"@{SP_STATE}"}),
}


@pytest.fixture(scope="module")
def session() -> dict[str, Any]:
    need("mcp")
    return asyncio.run(asyncio.wait_for(_session(), timeout=120))


def _text(result: Any) -> str:
    return "\n".join(
        getattr(c, "text", "") or getattr(getattr(c, "resource", None), "text", "") for c in result.content
    )


def test_every_tool_is_listed_with_a_schema_and_a_description(session: dict[str, Any]) -> None:
    """The server lists exactly the catalog's tools, each with an object schema and a real description."""
    from engine.assistant.tools import tools

    listed = {t.name: t for t in session["tools"]}
    assert list(listed) == [t.name for t in tools()]
    assert set(GOOD_CALLS) == set(listed) == set(BAD_CALLS)
    for tool in listed.values():
        assert tool.input_schema["type"] == "object"
        assert tool.input_schema.get("additionalProperties") is False
        assert len(tool.description or "") > 60, tool.name


def test_every_ask_kind_has_a_tool(session: dict[str, Any]) -> None:
    """Every ``arbiter ask`` question kind is reachable as a tool (search and rule under their own names)."""
    from engine.query.questions import all_questions

    listed = {t.name for t in session["tools"]}
    for kind in all_questions():
        assert {"search": "search_rules", "rule": "get_rule"}.get(kind, f"ask_{kind}") in listed


def test_every_tool_answers_good_input(session: dict[str, Any]) -> None:
    """Each tool called with good input succeeds and returns text and structured content."""
    for name, result in session["good"].items():
        assert not result.is_error, (name, _text(result))
        assert _text(result), name
        assert isinstance(result.structured_content, dict), name


def test_answers_are_the_engines(session: dict[str, Any]) -> None:
    """Tool answers equal the library's: bullheads of 55 (T6-BULL-1), a 6th card (T6-PLACE-2), a cost
    (SP-COST-2), the variety bonus and a German card name found by search."""
    from engine.query import ask

    good = session["good"]
    assert good["ask_bullheads"].structured_content["value"] == 7
    assert good["ask_row"].structured_content["value"]["sixth"] is True
    assert "T6-PLACE-2" in good["ask_row"].structured_content["clauses"]
    assert (
        good["ask_cost"].structured_content["value"]
        == ask("cost", {"card": "Market", "owns": ["Market"] * 2}).value
    )
    assert good["ask_bonus"].structured_content["value"] == 28
    assert good["search_rules"].structured_content["value"][0]["ref"] == "Czar and Carpenter"
    assert good["get_rule"].structured_content["clause"]["id"] == "T6-PLACE-2"


def test_gold_smelter_cost_in_a_position(session: dict[str, Any]) -> None:
    """'What does the Gold Smelter cost me here and why': 6 printed minus the displaced Gold Miner's 4
    (SP-COST-7), never below 1 (SP-COST-6), and player 0's 5 roubles suffice (SP-BUY-2)."""
    cost = session["good"]["card_cost"].structured_content
    assert cost["value"]["cost"] == 2 and cost["value"]["displace"] == "Gold Miner"
    assert {"SP-COST-1", "SP-COST-7", "SP-BUY-2"} <= set(cost["clauses"])
    assert cost["position"]["found_in"] == ["upper"]
    explained = session["good"]["explain_action"].structured_content
    assert explained["value"]["legal"] is True and explained["value"]["cost"] == 2


def test_position_tools(session: dict[str, Any]) -> None:
    """legal_actions lists the seat's 10 selections (T6-SELECT-1); record_position is the replayed state;
    check_record reports the divergence;
    render_position returns a PNG image and the SVG as an embedded image/svg+xml resource, showing only the
    viewer's hand."""
    good = session["good"]
    actions = good["legal_actions"].structured_content["actions"]["1"]
    assert len(actions) == 10 and all(a["type"] == "select" for a in actions)
    from engine.game import get_game
    from engine.query.explain import state_from_record

    expected = get_game("take6").state_to_json(state_from_record("take6", T6_RECORD, upto=4))
    assert good["record_position"].structured_content == expected
    check = good["check_record"].structured_content
    assert check["status"] == "divergence" and check["divergence"]["kind"] == "illegal"
    image, svg = good["render_position"].content
    assert image.type == "image" and image.mime_type == "image/png"
    png = base64.b64decode(image.data)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert good["render_position"].structured_content["png"] == {"mime_type": "image/png", "bytes": len(png)}
    picture = svg.resource
    assert picture.mime_type == "image/svg+xml" and picture.text.startswith("<svg")
    assert "as seen by P0" in picture.text
    width = int.from_bytes(png[16:20], "big")  # the PNG's IHDR: the picture's own size at scale 1
    assert width == good["render_position"].structured_content["width"]


def test_bad_input_is_an_error_naming_the_field_or_rule(session: dict[str, Any]) -> None:
    """Each tool called with bad input returns an isError result whose text names the field or clause."""
    for name, (_args, named) in BAD_CALLS.items():
        result = session["bad"][name]
        assert result.is_error, name
        text = _text(result)
        assert named in text, (name, text)
        assert "Traceback" not in text
        error = result.structured_content["error"]
        assert named in f"{error['field']} {error['clause']} {error['message']}"


def test_unknown_tool_and_resource_are_protocol_errors_and_the_server_survives(
    session: dict[str, Any],
) -> None:
    """An unknown tool or resource is an MCP error naming it; the server answers normally afterwards."""
    assert "no_such_tool" in str(session["unknown_tool"])
    assert "arbiter://seed/999" in str(session["unknown_resource"])
    assert session["after"].structured_content["value"] == 28


def test_resources_are_every_clause_and_every_seed(session: dict[str, Any]) -> None:
    """Every clause (arbiter://clause/ID) and every seed document (arbiter://seed/KEY) is a resource; reading
    one returns the clause's wording with its citation, or the seed's verbatim text."""
    from engine.spec import all_clauses, seed_document, seed_index

    uris = {str(r.uri) for r in session["resources"]}
    assert {f"arbiter://clause/{c}" for c in all_clauses()} <= uris
    assert {f"arbiter://seed/{k}" for k in seed_index()} <= uris
    clause = session["clause"].contents[0].text
    assert clause.startswith("SP-COST-7") and "seed" in clause
    assert session["seed"].contents[0].text == seed_document("001")


def test_server_reports_itself(session: dict[str, Any]) -> None:
    """The handshake names the server and carries instructions for the assistant."""
    init = session["init"]
    assert init.server_info.name == "arbiter"
    assert "clause" in (init.instructions or "")


def test_tool_result_json_round_trips() -> None:
    """Protocol-free: a tool's structured content is plain JSON (what the server sends)."""
    from engine.assistant.tools import call

    data = call("ask_row", GOOD_CALLS["ask_row"]).data
    assert json.loads(json.dumps(data)) == data


def test_an_engine_fault_becomes_an_error_result() -> None:
    """A fault inside a tool is reported as an error result naming ``internal``, not raised: the server
    keeps serving (rule violations name their clause, e.g. T6-SELECT-1)."""
    need("mcp")  # the server's worker pool runs on the SDK's anyio
    from engine.assistant.server import error_payload
    from engine.errors import IllegalAction

    text, error = error_payload(ZeroDivisionError("division by zero"))
    assert text == "internal: ZeroDivisionError: division by zero" and error["field"] == "internal"
    assert (
        error_payload(IllegalAction("T6-SELECT-1", "card 4 is not in P0's hand"))[1]["clause"]
        == "T6-SELECT-1"
    )


def test_every_tool_declares_its_output_schema_and_keeps_to_it(session: dict[str, Any]) -> None:
    """Each tool lists an object output schema, a valid JSON Schema that its structured result conforms to
    (the SDK's client checks every good call against it as well)."""
    from jsonschema import Draft202012Validator

    for tool in session["tools"]:
        schema = tool.output_schema
        assert isinstance(schema, dict) and schema["type"] == "object", tool.name
        Draft202012Validator.check_schema(schema)
        result = session["good"][tool.name]
        errors = list(Draft202012Validator(schema).iter_errors(result.structured_content))
        assert not errors, (tool.name, errors[0].message)


def test_descriptions_speak_of_the_tools_not_the_command_line(session: dict[str, Any]) -> None:
    """No description names a command line (``arbiter ask``, a ``--flag``) or repeats one boilerplate; the
    position arguments say the notation is accepted."""
    import re

    tails = []
    for tool in session["tools"]:
        text = tool.description or ""
        assert "arbiter " not in text and not re.search(r"(?<![\w-])--[a-z]", text), tool.name
        tails.append(text.split(". ")[-1])
        for name, prop in tool.input_schema["properties"].items():
            assert not re.search(r"(?<![\w-])--[a-z]", prop.get("description", "")), (tool.name, name)
        if "position" in tool.input_schema["properties"]:
            assert "notation" in tool.input_schema["properties"]["position"]["description"], tool.name
    assert not any("cite those when you answer" in (t.description or "") for t in session["tools"])
    assert len(set(tails)) > len(tails) // 2  # the sentences differ from tool to tool


def test_errors_name_the_tools_arguments(session: dict[str, Any]) -> None:
    """An error the engine words for the command line names the tool's argument instead: ``displace``
    (SP-TRADE-1), ``action.card``; no error text of any bad call holds a ``--flag``."""
    import re

    for name, (_args, named) in FLAG_CALLS.items():
        result = session["flags"][name]
        assert result.is_error and named in _text(result), (name, _text(result))
    results = [*session["flags"].values(), *session["bad"].values()]
    for result in results:
        text = _text(result)
        assert not re.search(r"(?<![\w-])--[a-z]", text), text
        error = result.structured_content["error"]
        assert not (error["field"] or "").startswith("--"), error


def test_clause_resource_template(session: dict[str, Any]) -> None:
    """The server lists a resource template for clauses (and seeds); a URI made from it reads the clause."""
    templates = {t.name: t.uri_template for t in session["templates"]}
    assert templates["clause"] == "arbiter://clause/{id}"
    assert templates["seed document"] == "arbiter://seed/{key}"
    assert str(session["clause"].contents[0].uri) == templates["clause"].replace("{id}", "SP-COST-7")


def test_prompts_put_the_tools_to_work(session: dict[str, Any]) -> None:
    """Two prompts: settling a dispute from a position names legal_actions and explain_action with the
    position and action given; checking a record names check_record, record_position and get_rule; a bad
    argument is an MCP error naming it."""
    names = {p.name: p for p in session["prompts"]}
    assert set(names) >= {"settle_dispute", "check_implementation"}
    required = [a.name for a in names["settle_dispute"].arguments if a.required]
    assert required == ["game", "position", "question"]
    dispute = session["prompt_dispute"].messages[0]
    assert dispute.role == "user"
    text = dispute.content.text
    assert "legal_actions" in text and "explain_action" in text and "get_rule" in text
    assert PROMPT_DISPUTE["position"] in text and PROMPT_DISPUTE["action"] in text
    check = session["prompt_check"].messages[0].content.text
    assert "check_record" in check and "record_position" in check and str(DIVERGE) in check
    assert "game" in str(session["bad_prompt"]) and "chess" in str(session["bad_prompt"])


def test_completions_through_a_client_session(session: dict[str, Any]) -> None:
    """``completion/complete`` (the server declares the capability): clause ids for the template
    arbiter://clause/{id} (case ignored), seed keys, games, Saint Petersburg card names of both editions
    with their German and Russian names and aliases, the editions, the clause ids of a prompt's
    argument; a question in words has none to offer; an unknown prompt is an MCP error naming it."""
    from engine.spec import all_clauses

    assert session["init"].capabilities.completions is not None
    got = {key: result.completion for key, result in session["completions"].items()}
    sp_cost = sorted(c for c in all_clauses() if c.startswith("SP-COST-"))
    assert sorted(got["clause"].values) == sp_cost and got["clause"].total == len(sp_cost)
    assert got["seed"].values == ["000", "001", "003", "004"]
    assert got["game"].values == ["take6", "petersburg"]
    assert {"Gold Miner", "Gold Smelter", "Goldgräber"} <= set(got["card"].values)
    assert got["card_de"].values == ["Holzfäller"]
    assert got["edition_name"].values == ["Czar & Carpenter"]
    assert got["variant"].values == ["first", "second"]
    rule = got["rule"]
    assert rule.values and all(v.startswith("T6-") for v in rule.values) and not rule.has_more
    assert got["question"].values == [] and got["question"].total == 0
    assert "no_such_prompt" in str(session["bad_completion"])


def test_actions_as_text_through_a_client_session(session: dict[str, Any]) -> None:
    """Through the SDK's client: explain_action's action takes a text or an object (its input schema says
    so); the Gold Smelter buy by its text is answered exactly as by its JSON form (legal, SP-COST-7);
    legal_actions prints each action by its text and returns the texts beside the JSON forms (valid against
    its output schema, checked by the client); a text naming two legal actions is an error on ``action``
    listing both readings."""
    from engine.game import get_game
    from engine.positions import load_position_arg

    listed = {t.name: t for t in session["tools"]}
    action = listed["explain_action"].input_schema["properties"]["action"]
    assert {option["type"] for option in action["anyOf"]} == {"string", "object"}
    assert "texts" in listed["legal_actions"].output_schema["required"]
    calls = session["text_calls"]
    by_text = calls["explain"]
    assert not by_text.is_error, _text(by_text)
    assert by_text.structured_content == session["good"]["explain_action"].structured_content
    assert by_text.structured_content["value"]["action"] == "buy Gold Smelter over Gold Miner"
    legal = calls["legal"]
    game = get_game("petersburg")
    state = load_position_arg("petersburg", f"@{SP_STATE}")
    texts = [game.action_to_text(state, a) for a in game.legal_actions(state, 0)]
    assert legal.structured_content["texts"] == {"0": texts}
    assert "buy Gold Smelter over Gold Miner" in texts
    assert f"P0: 3 legal action(s): {'; '.join(texts)}" in _text(legal)
    t6 = session["good"]["legal_actions"].structured_content
    assert len(t6["texts"]["1"]) == len(t6["actions"]["1"]) == 10
    ambiguous = calls["ambiguous"]
    assert ambiguous.is_error
    error = ambiguous.structured_content["error"]
    assert error["field"] == "action" and "'buy Market upper' or 'buy Market lower'" in error["message"]
