"""docs/faq.md runs: every answer's ```faq block is executed through ``arbiter ask`` and must still give the
value and apply the clauses it shows, so the FAQ cannot drift from the engine."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from engine.query.faq import FaqEntry, check_entry, read_faq

FAQ = Path(__file__).resolve().parent.parent / "docs" / "faq.md"
ENTRIES = read_faq(FAQ)


def test_at_least_thirty_questions_per_game() -> None:
    """The FAQ holds at least 30 executable questions in each game's section, each under its own question."""
    counts = Counter(e.section for e in ENTRIES)
    assert counts["6 nimmt!"] >= 30, counts
    assert counts["Saint Petersburg"] >= 30, counts
    questions = [e.question for e in ENTRIES]
    assert all(q.startswith("Q: ") for q in questions)
    assert len(set(questions)) == len(questions), "a question is asked twice"


def test_at_least_120_answered_questions_covering_the_hard_points() -> None:
    """The FAQ answers at least 120 questions, each with its command, and covers who wins (standings in
    both games, both readings of the money tie-break, SP-END-6), every game's rulings (disputed), a
    question typed in plain words (search naming the ask command), a single-card turn and the countdown."""
    assert len(ENTRIES) >= 120
    commands = [e.command for e in ENTRIES]
    standings = [c for c in commands if c.startswith("arbiter ask standings petersburg")]
    assert any("keep_roubles=false" in c for c in standings)
    assert any("keep_roubles" not in c for c in standings)
    for game in ("take6", "petersburg"):
        assert f"arbiter ask disputed --game {game}" in commands
        assert any(c.startswith(f"arbiter ask standings {game}") for c in commands)
    assert any(c.startswith("arbiter ask search") and e.summary and "arbiter ask" in e.summary
               for e, c in zip(ENTRIES, commands, strict=True))
    assert "arbiter ask turn --rows 20 30 40 50 --cards 45" in commands
    assert any("--variant countdown" in c for c in commands)


@pytest.mark.parametrize("entry", ENTRIES, ids=[f"line{e.line}" for e in ENTRIES])
def test_faq_answer_still_holds(entry: FaqEntry) -> None:
    """The block's command gives the stated value / clauses / summary, or the stated refusal."""
    problems = check_entry(entry)
    assert not problems, "\n".join(problems)


def test_every_faq_answer_says_which_rulings_it_rests_on() -> None:
    """Every answered block lists the rulings its answer rests on (``rulings:``, checked exactly by
    test_faq_answer_still_holds), so no FAQ answer states more than its quotes without saying so."""
    missing = [e.line for e in ENTRIES if e.error is None and e.rulings is None]
    assert missing == [], f"blocks without a rulings: line at lines {missing}"
    assert any(e.rulings and "SP-END-6" in e.rulings for e in ENTRIES)


def test_a_hidden_ruling_is_caught() -> None:
    """The rulings check is not vacuous: a block claiming no ruling for an answer resting on SP-END-6 fails,
    and so does one naming the ruling where the answer applies the option's other reading."""
    cmd = "arbiter ask standings petersburg --scores 23 23 --money 30 19"
    assert check_entry(FaqEntry("Saint Petersburg", "Q: demo", cmd, 1, rulings=()))
    assert check_entry(FaqEntry("Saint Petersburg", "Q: demo", cmd, 1, rulings=("SP-END-6",))) == []
    other = cmd + " --option keep_roubles=false"
    assert check_entry(FaqEntry("Saint Petersburg", "Q: demo", other, 1, rulings=("SP-END-6",)))


def test_every_faq_block_checks_something_of_the_engine() -> None:
    """No block is vacuous: each states a value, a clause, a summary or an error to check."""
    for e in ENTRIES:
        assert e.has_value or e.clauses or e.summary or e.error, f"line {e.line}: nothing checked"


def test_a_wrong_expectation_is_caught() -> None:
    """The checker is not vacuous: a wrong value and a clause the answer does not apply are reported."""
    wrong = FaqEntry("6 nimmt!", "Q: demo", "arbiter ask bullheads 55", 1, value=5, clauses=("T6-BULL-2",))
    problems = check_entry(wrong)
    assert len(problems) == 2
    refused = FaqEntry("6 nimmt!", "Q: demo", "arbiter ask bullheads 0", 1, error="cards")
    assert check_entry(refused) == []
    not_refused = FaqEntry("6 nimmt!", "Q: demo", "arbiter ask bullheads 1", 1, error="cards")
    assert check_entry(not_refused)
