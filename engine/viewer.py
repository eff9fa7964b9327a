"""A game record as one self-contained HTML page to step through (``arbiter view RECORD -o game.html``, the
command line in :mod:`engine.cli_viewer`).

The record is checked first (:func:`engine.conformance.records.check.check_record`), then replayed on the
reference engine.  Each step of the page shows the picture of the position (:mod:`engine.svg`), the engine's
narration of the action, and the clauses applied (the clauses of the engine's derivation of the step,
``GAME.derive``, and the chain :func:`engine.query.explain.explain` gives for the action), each linked to its
wording and seed passages. When the record diverges from the rules (a record from ``arbiter check`` or a
``fuzz`` counterexample), the page opens at that step and shows both sides: what the record says, what the
rules say, the deciding clauses, and for a refused action what would have been legal.

The page needs no network: styles, script, pictures and clause texts are all inside it.  It is operated by
buttons, a slider, the arrow keys, or the address's ``#step-N``.

>>> import io
>>> from engine.conformance.records.format import record_game, write_record
>>> from engine.game import get_game
>>> g = get_game("take6")
>>> s, acts = g.new_game(2, seed=3), []
>>> for _ in range(4):
...     a = g.legal_actions(s, g.to_act(s)[0])[0]
...     acts.append(a)
...     s = g.apply(s, a)
>>> buf = io.StringIO()
>>> write_record(buf, record_game("take6", players=2, seed=3, actions=acts))
>>> replay = build_replay(io.StringIO(buf.getvalue()), name="demo.jsonl")
>>> len(replay.steps), replay.start, replay.divergence is None
(5, 0, True)
>>> page = replay_html(replay)
>>> body = page.split("<body", 1)[1].replace("http://www.w3.org/2000/svg", "")
>>> page.startswith("<!DOCTYPE html>"), "http" in body, "src=" in body
(True, False, False)
"""

from __future__ import annotations

import difflib
import html
import io
import json
import re
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import IO, Any

from attrs import field, frozen

from engine.action_input import seated
from engine.errors import InputError, RuleViolation
from engine.game import Game, get_game
from engine.svg import game_over, plural

__all__ = ["Replay", "Step", "build_replay", "replay_html"]


@frozen
class Step:
    """One step of a replay: the position after ``index`` actions (0 is the start) and how it came about."""

    index: int
    title: str
    svg: str
    narration: tuple[str, ...] = ()
    clauses: tuple[str, ...] = ()
    action: dict[str, Any] | None = None
    player: int | None = None
    comment: str | None = None
    rulings: tuple[dict[str, Any], ...] = ()
    """The rulings the step's derivation rests on (``Ruling.to_json``; ``chosen``: an option's reading)."""
    text: str | None = None
    """The action's text in the position before it, with its seat (``P1 buy Market lower``: what ``arbiter
    explain --action`` takes there); ``None`` at the start, or for a value that is no action."""


@frozen
class Replay:
    """A whole record, replayed: its steps, the step to open at, and the divergence, if any.

    ``divergence`` is the checker's divergence as JSON plus ``step`` (the step it concerns) and, for a
    refused action, ``explanation`` (the engine's answer: the refusing clause and what would be legal).
    """

    name: str
    game: str
    variant: str
    players: int
    steps: tuple[Step, ...]
    start: int = 0
    divergence: dict[str, Any] | None = None
    status: str = "ok"
    finished: bool = False
    result: dict[str, Any] | None = field(default=None)


def _read_source(source: str | Path | IO[str], name: str | None) -> tuple[str, str]:
    from engine import jsonio

    if isinstance(source, str | Path):
        return jsonio.read_text(source), name or Path(source).name
    return source.read(), name or "<stream>"


def _derived_clauses(g: Any, before: Any, action: Any) -> list[str]:
    """The clauses of the engine's derivation of one step (``GAME.derive``), in order, each once."""
    derive = getattr(g, "derive", None)
    if derive is None:
        return []
    return list(dict.fromkeys(c for root in derive(before, action) for c in root.clauses()))


def _derived_rulings(g: Any, before: Any, action: Any, chain: Any) -> tuple[dict[str, Any], ...]:
    """The rulings of the step's derivation (``GAME.derive``) and of ``explain``'s chain, each once, as
    JSON: what the rules panel marks."""
    derive = getattr(g, "derive", None)
    found = [r for root in (derive(before, action) if derive else ()) for r in root.rulings()]
    return tuple(r.to_json() for r in dict.fromkeys([*found, *chain.rulings]))


def _picture(game: str, state: Any, viewer: int | None) -> str:
    from engine.svg import board_svg

    return board_svg(game, state, viewer=viewer)


TITLE_TEXT = 80
"""The longest action text a step's title shows (a 6 nimmt! deal is longer: the action line has it whole)."""


def _text(g: Game, state: Any, action: Any, player: int | None) -> str:
    """``player``'s action as text in ``state``, with the seat (a chance step's without)."""
    return seated(g.action_to_text(state, action), player)


def _title(
    index: int, text: str | None, action_json: dict[str, Any], player: int | None, how: str = ""
) -> str:
    """A step's title: ``Action 12: P1 buy Market lower``, ``Action 30 (chance): deal ...``, ``Action 4
    (refused): P0 4``; the record's JSON when the value is no action of the game."""
    shown = text if text is not None else json.dumps(action_json, ensure_ascii=False)
    if len(shown) > TITLE_TEXT:
        shown = shown[: TITLE_TEXT - 1] + "…"
    how = how or ("chance" if player is None else "")
    return f"Action {index}" + (f" ({how})" if how else "") + f": {shown}"


def build_replay(
    source: str | Path | IO[str], *, name: str | None = None, viewer: int | None = None
) -> Replay:
    """Check and replay a record (a path or a text stream); InputError when it is malformed.

    ``viewer`` draws every picture as that seat sees it.
    """
    from engine.conformance.kits.base import get_kit
    from engine.conformance.records.check import _start as start_of
    from engine.conformance.records.check import check_record
    from engine.conformance.records.format import ActionLine, Header, ResultLine, iter_record
    from engine.query.explain import explain

    text, label = _read_source(source, name)
    report = check_record(io.StringIO(text), name=label)
    if report.status == "malformed":
        raise InputError("RECORD", report.error or f"{label} is not a valid record")
    div = report.divergence
    lines = iter_record(io.StringIO(text), name=label)
    header = next(lines)
    assert isinstance(header, Header)
    g = get_game(header.game)
    if viewer is not None and not 0 <= viewer < header.players:
        raise InputError("--viewer", f"expected a seat 0..{header.players - 1}, got {viewer}")
    divergence = div.to_json() if div is not None else None
    if div is not None and div.kind == "setup":
        assert divergence is not None
        divergence["step"] = 0
        blank = (
            '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="60"><text x="10" y="35">'
            "the set-up breaks the rules: no position</text></svg>"
        )
        step = Step(0, "Set-up refused", blank, (div.reason,), div.clauses)
        return Replay(
            label, header.game, header.variant, header.players, (step,), 0, divergence, report.status
        )
    kit = get_kit(header.game)
    _game, _kit, state = start_of(header, label)  # the checker's own start: set-up, position, or none
    steps = [
        Step(
            0,
            "Start of the game",
            _picture(header.game, state, viewer),
            tuple(g.describe_state(state)),
            comment=header.comment,
        )
    ]
    start = 0
    result: dict[str, Any] | None = None
    for line in lines:
        if isinstance(line, ResultLine):
            result = {k: v for k, v in line.to_json().items() if k != "type"}
            continue
        assert isinstance(line, ActionLine)
        action_json = dict(line.action)
        if div is not None and div.kind == "illegal" and line.index == div.index:
            assert divergence is not None
            answer = explain(header.game, state, action_json)
            divergence["explanation"] = answer.to_json()
            divergence["step"] = len(steps)
            start = len(steps)
            try:
                said: str | None = _text(g, state, g.action_from_json(action_json), line.player)
            except (InputError, RuleViolation):  # refused before it is an action (a deal of the wrong shape)
                said = None
            steps.append(
                Step(
                    len(steps),
                    _title(line.index, said, action_json, line.player, "refused"),
                    _picture(header.game, state, viewer),
                    (f"refused: {answer.summary}", *answer.notes),
                    tuple(dict.fromkeys([*div.clauses, *answer.clauses])),
                    action_json,
                    line.player,
                    line.comment,
                    text=said,
                )
            )
            break
        before = state
        action = g.action_from_json(action_json)
        try:
            state = g.apply(before, action)
        except RuleViolation as exc:  # pragma: no cover - the checker reported the first refusal above
            raise InputError("RECORD", f"{label}: action {line.index} is refused: {exc}") from None
        narration = g.narrate(before, action, state)
        answer = explain(header.game, before, action_json)
        chain = answer.clauses
        # a player's action: also the clause that allows its kind (a pass: SP-TURN-3, a buy: SP-BUY-1)
        allows = [kit.legal_clause(action)] if line.player is not None else []
        clauses = tuple(dict.fromkeys([*_derived_clauses(g, before, action), *chain, *allows]))
        said = _text(g, before, action, line.player)
        steps.append(
            Step(
                len(steps),
                _title(line.index, said, action_json, line.player),
                _picture(header.game, state, viewer),
                tuple(narration),
                clauses,
                action_json,
                line.player,
                line.comment,
                _derived_rulings(g, before, action, answer),
                said,
            )
        )
        if div is not None and div.kind == "claim" and line.index == div.index:
            assert divergence is not None
            divergence["step"] = start = len(steps) - 1
            break
    if div is not None and div.index is None and divergence is not None:
        divergence["step"] = start = len(steps) - 1
    if divergence is None:
        divergence = _reported(steps)
        start = divergence["step"] if divergence else 0
    if result is None and g.is_terminal(state) and div is None:
        result = g.result(state).to_json()
    return Replay(
        label,
        header.game,
        header.variant,
        header.players,
        tuple(steps),
        start,
        divergence,
        report.status,
        report.finished,
        result,
    )


FUZZ_NOTE = "arbiter fuzz: "
"""How ``arbiter fuzz`` begins the comment on the line where a peer disagreed with the rules."""


def _reported(steps: list[Step]) -> dict[str, Any] | None:
    """A disagreement a record cannot state as a claim, reported in a fuzzing comment (the peer refused or
    omitted a legal action, crashed, hung): the record's side is the comment, the rules' side the step."""
    for step in steps:
        if step.comment and step.comment.startswith(FUZZ_NOTE):
            kind, _, message = step.comment[len(FUZZ_NOTE) :].partition(": ")
            rules = "; ".join(line.strip() for line in step.narration) or "the position above"
            return {
                "kind": f"reported ({kind})" if message else "reported",
                "index": None if step.action is None else step.index - 1,
                "line": step.index + 1,
                "record": f"the peer: {message or kind}",
                "rules": f"the rules: {rules}",
                "clauses": list(step.clauses),
                "reason": "arbiter fuzz found the peer disagreeing with the rules here, in a way a record "
                "line cannot claim; the record's comment says what the peer did",
                "step": step.index,
            }
    return None


# --------------------------------------------------------------------------------------------------
# The page


def _clause_entries(replay: Replay) -> dict[str, Any]:
    from engine.query.model import clause_index
    from engine.spec import seed_index

    known = clause_index()
    seeds = seed_index()
    ids: dict[str, None] = {}
    for step in replay.steps:
        for cid in step.clauses:
            ids.setdefault(cid, None)
    if replay.divergence:
        for cid in replay.divergence.get("clauses", []):
            ids.setdefault(cid, None)
    out: dict[str, Any] = {}
    for cid in sorted(ids):
        c = known.get(cid)
        if c is None:
            continue
        out[cid] = {
            "id": c.id,
            "game": c.game,
            "topic": c.topic,
            "text": c.text,
            "ruling": c.ruling,
            "rejects": c.rejects,
            "other": c.alternative,
            "cites": [
                {
                    "seed": x.seed,
                    "title": seeds[x.seed].title if x.seed in seeds else x.seed,
                    "where": x.where,
                    "quote": x.quote,
                }
                for x in c.cites
            ],
        }
    return out


# Characters escaped in the page's embedded JSON: with no ``<`` no string can end the script element
# (``</script>``) or open the script-data states a ``<!--<script>`` puts the HTML parser in; ``>`` and
# ``&`` for good measure; U+2028/2029 break older JavaScript string literals; a lone surrogate (which a
# record's JSON may hold as an escape) cannot be written as UTF-8, so it stays an escape.
_SCRIPT_ESCAPES = str.maketrans(
    {c: f"\\u{ord(c):04x}" for c in ("<", ">", "&", "\u2028", "\u2029", *map(chr, range(0xD800, 0xE000)))}
)
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _script_json(data: Any) -> str:
    """JSON safe inside a ``<script>`` element: every ``<``, ``>``, ``&``, U+2028, U+2029 and lone surrogate
    is written as a ``\\uXXXX`` escape (inside JSON strings, the only place they can occur), so the
    element's text is the JSON exactly and nothing in it can end the element or change how the HTML parser
    reads it.

    >>> _script_json({"comment": "<!--<script>"})
    '{"comment":"\\\\u003c!--\\\\u003cscript\\\\u003e"}'
    """
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).translate(_SCRIPT_ESCAPES)


_SVG_PARTS = re.compile(r"<text[^<>]*>[^<>]*</text>|<[^<>]*>|[^<>]+")


def _shared_pictures(steps: Iterable[Step]) -> tuple[list[str], list[list[Any]]]:
    """The pictures of the steps as one table of distinct SVG elements and, per step, how its picture
    differs from the step before's: ``[i, m]`` is m elements of the previous picture from its i-th, ``k``
    element k of the table.  Successive positions share most of their elements (the drawings place
    cards and panels by moving a group, so an element reads the same wherever its group stands): a
    long game's page stays small.

    >>> pictures = [Step(0, "a", "<svg><g>x</g></svg>"), Step(1, "b", "<svg><g>y</g></svg>")]
    >>> _shared_pictures(pictures)
    (['<svg>', '<g>', 'x', '</g>', '</svg>', 'y'], [[0, 1, 2, 3, 4], [[0, 2], 5, [3, 2]]])
    """
    table: dict[str, int] = {}
    out: list[list[Any]] = []
    before: list[int] = []
    for step in steps:
        parts = _SVG_PARTS.findall(step.svg)
        assert "".join(parts) == step.svg, "an SVG element the viewer cannot split"
        ids = [table.setdefault(part, len(table)) for part in parts]
        ops: list[Any] = []
        matcher = difflib.SequenceMatcher(None, before, ids, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                ops.append([i1, i2 - i1])
            elif tag != "delete":
                ops.extend(ids[j1:j2])
        out.append(ops)
        before = ids
    return list(table), out


def _page_data(replay: Replay, cited: Iterable[str]) -> dict[str, Any]:
    """What the page's script reads: the steps with their pictures as differences over a shared table
    of SVG elements (:func:`_shared_pictures`), their narration lines as indexes into a table of the
    distinct lines, their clauses as indexes into the list of clause ids cited (the glossary holds each
    one's wording), the rulings they rest on as indexes into a table of the distinct rulings, an action's
    text only where its title does not end with it (cut, or none: ``null``), the step to open at and the
    divergence.

    >>> from engine.game import get_game
    >>> from engine.svg import board_svg
    >>> picture = board_svg("take6", get_game("take6").new_game(2, seed=1))
    >>> steps = (Step(0, "Start", picture, ("a", "b")), Step(1, "Go", picture, ("b",), ("T6-SELECT-1",)))
    >>> data = _page_data(Replay("r", "take6", "standard", 2, steps), ["T6-SELECT-1"])
    >>> data["lines"], data["clauses"], [s["narration"] for s in data["steps"]], data["steps"][1]["clauses"]
    (['a', 'b'], ['T6-SELECT-1'], [[0, 1], [1]], [0])
    """
    table, pictures = _shared_pictures(replay.steps)
    ids = list(dict.fromkeys([*cited, *(c for s in replay.steps for c in s.clauses)]))
    index = {cid: i for i, cid in enumerate(ids)}
    lines: dict[str, int] = {}
    rulings: dict[str, int] = {}  # a ruling's canonical JSON -> its index in the page's table
    steps = []
    for step, picture in zip(replay.steps, pictures, strict=True):
        shown: dict[str, Any] = {
            "title": step.title,
            "svg": picture,
            "narration": [lines.setdefault(line, len(lines)) for line in step.narration],
            "clauses": [index[c] for c in step.clauses],
        }
        if step.action is not None:
            shown["action"] = step.action
            if step.text is None or not step.title.endswith(f": {step.text}"):
                shown["text"] = step.text  # else the title ends with it: the script reads it there
        if step.comment is not None:
            shown["comment"] = step.comment
        if step.rulings:
            shown["rulings"] = [rulings.setdefault(json.dumps(r, sort_keys=True), len(rulings))
                                for r in step.rulings]
        steps.append(shown)
    return {
        "steps": steps,
        "svg_parts": table,
        "lines": list(lines),
        "clauses": ids,
        "rulings": [json.loads(r) for r in rulings],
        "start": replay.start,
        "divergence": replay.divergence,
    }


def _asset(name: str) -> str:
    """A file of ``engine/assets/`` (the page's styles and script), shipped inside the package."""
    return resources.files("engine").joinpath("assets", name).read_text(encoding="utf-8")


def _glossary(entries: dict[str, Any]) -> str:
    e = html.escape
    parts = ['<section id="glossary"><h2>Rules cited in this game</h2>']
    for cid, c in entries.items():
        cites = "".join(
            f'<blockquote>{e(x["quote"])}<span class="src">seed {e(x["seed"])} · {e(x["title"])} · '
            f"{e(x['where'])}</span></blockquote>"
            for x in c["cites"]
        )
        ruling = f'<p class="muted">Ruling: {e(c["ruling"])}</p>' if c["ruling"] else ""
        if c["ruling"] and c["rejects"]:
            ruling += f'<p class="muted">Rejected reading: {e(c["rejects"])}</p>'
        if c["ruling"] and c["other"]:
            ruling += f'<p class="muted">The other reading: {e(c["other"])}</p>'
        head = f'<h3>{cid} <span class="muted">· {e(c["game"])} · {e(c["topic"])}</span></h3>'
        parts.append(
            f'<div class="clause-entry" id="clause-{cid}">{head}<p>{e(c["text"])}</p>{ruling}{cites}</div>'
        )
    parts.append("</section>")
    return "".join(parts)


def _divergence_panel(div: dict[str, Any] | None) -> str:
    e = html.escape
    if div is None:
        return '<section id="divergence" class="panel" hidden></section>'
    explanation = div.get("explanation")
    hint = ""
    if explanation:
        notes = "".join(f"<p data-linkify>{e(n)}</p>" for n in explanation.get("notes", []))
        hint = f"<p data-linkify><b>Engine:</b> {e(explanation['summary'])}</p>{notes}"
    if div["index"] is not None:
        where = f"action {div['index']}"
    elif div["kind"].startswith("reported"):
        where = "the start"
    else:
        where = "the set-up" if div["kind"] == "setup" else "the result line"
    fact = f" ({e(div['fact'])})" if div.get("fact") else ""
    said, says = e(div["record"]), f"<span data-linkify>{e(div['rules'])}</span>"
    if div.get("fact") == "legal" and ("missing" in div or "extra" in div):
        # a legal-set claim: each side's actions one per line, by text (with its seat) and as readable
        # JSON (it wraps at its spaces)
        def named(x: dict[str, Any]) -> str:
            text = f"<b>{e(x['text'])}</b> " if x.get("text") else ""
            return f"{text}<code>{e(json.dumps(x['action'], ensure_ascii=False))}</code>"

        def listed(items: list[dict[str, Any]], why: bool) -> str:
            rows = "".join(
                f"<li>{named(x)} <span data-linkify>"
                f"({e(x['clause'] or '')}{': ' + e(x['reason']) if why and x.get('reason') else ''})"
                "</span></li>"
                for x in items
            )
            return f'<ul class="actions">{rows}</ul>' if rows else ""

        head = div["record"].split(": ", 1)[0]
        said = (
            f"{e(head)}; the rules refuse:{listed(div.get('extra', []), True)}"
            if div.get("extra")
            else e(head)
        )
        says += f"; the record omits:{listed(div.get('missing', []), False)}" if div.get("missing") else ""
    record = f'<div id="side-record"><h3>The record says</h3><div class="said">{said}</div></div>'
    rules = f'<div id="side-rules"><h3>The rules say</h3><div class="said">{says}</div></div>'
    why = f"<p data-linkify><b>Why:</b> {e(div['reason'])} — {e(', '.join(div['clauses']))}</p>"
    return (
        f'<section id="divergence" class="panel" hidden><h2>Divergence at {where}, line {div["line"]}: '
        f'{e(div["kind"])}{fact}</h2><div class="sides">{record}{rules}</div>{why}{hint}</section>'
    )


STATUS = {"ok": "every action legal, every claim matches", "divergence": "the record diverges from the rules"}

NAV = (
    '<nav><button id="first" title="start (Home)">« start</button>'
    '<button id="prev" title="back (←)">◀ back</button><span id="counter"></span>'
    '<button id="next" title="forward (→)">forward ▶</button>'
    '<button id="last" title="end (End)">end »</button>'
    '<input id="slider" type="range" min="0" value="0">'
)


def replay_html(replay: Replay) -> str:
    """The page of a replay: one HTML document with everything inline (deterministic)."""
    e = html.escape
    title = get_game(replay.game).title
    entries = _clause_entries(replay)
    data = _page_data(replay, entries)
    result = ""
    if replay.result:  # the engine's result, or the record's result line when the rules gave none
        winners, scores = replay.result.get("winners") or [], replay.result.get("scores") or []
        won = game_over(winners).removeprefix("game over · ")
        result = f" · {won} · scores {', '.join(map(str, scores))}"
    jump = '<button id="jump-divergence" title="go to the divergence">divergence</button>'
    meta = (
        f"{e(replay.variant)} · {plural(replay.players, 'player')} · {plural(len(replay.steps), 'step')} · "
        f'<span id="status">{e(STATUS.get(replay.status, replay.status))}</span>{e(result)}'
    )
    page = (
        "<!DOCTYPE html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><title>{e(replay.name)} · {e(title)}</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{_asset('viewer.css')}</style></head><body>"
        f'<header><h1>{e(title)} · {e(replay.name)}</h1><div class="meta">{meta}</div></header>'
        f"{NAV}{jump if replay.divergence else ''}</nav>"
        '<main><section id="picture"></section><div id="side">'
        f"{_divergence_panel(replay.divergence)}"
        '<section class="panel"><h2 id="step-title"></h2><div id="action" class="action"></div>'
        '<div id="narration"></div></section>'
        '<section class="panel"><h2>Rules applied</h2><div id="chips" class="chips"></div></section>'
        "</div></main>"
        f"{_glossary(entries)}"
        f'<script type="application/json" id="replay-data">{_script_json(data)}</script>'
        f"<script>{_asset('viewer.js')}</script></body></html>\n"
    )
    return _LONE_SURROGATE.sub("\ufffd", page)  # one a record held, shown in the page text, is U+FFFD
