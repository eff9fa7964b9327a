"""Peers for ``arbiter fuzz``: the protocol they speak, how one is started, and the shipped example peers.

* :mod:`engine.conformance.peers.protocol`: the line protocol (requests, replies, their validation) and the
  transports that carry it (a child process, or an object in this process);
* :mod:`engine.conformance.peers.launch`: peer factories, starting a fresh peer for each game;
* :mod:`engine.conformance.peers.base`: the server loop the example peers share.

Each example peer (:data:`PEERS`) is runnable (``python -m engine.conformance.peers.NAME``) and reads
requests on stdin, one JSON object per line, answering each on stdout.

* ``reference``: this engine itself; the harness must find no divergence against it.
* Deliberately wrong peers, each built on the reference with one documented defect, which the fuzzer must
  catch and shrink (they are the harness's own tests):

  - ``take6_fewest_heads``: 6 nimmt!; a card lower than every row end goes, without asking the player,
    to the row with the fewest bullheads (T6-PLACE rulings say the player chooses);
  - ``petersburg_free_cards``: Saint Petersburg; forgets the minimum cost of 1 rouble, so a card whose
    reductions reach its price is free;
  - ``lenient``: any game; accepts an illegal action (answers ``ok`` and ignores it);
  - ``crash``: any game; the process dies the first time a player scores;
  - ``hang``: any game; stops answering at the first action of the second turn (a timeout);
  - ``garbage``: any game; prints a debug line on stdout whenever a single player must act;
  - ``fork``: any game; at every new game starts processes that hold its output (``--then exit``: and
    exits without a reply); the harness must report a crash at once and leave no process behind;
  - ``multi``: several independent defects, switchable with ``--defects``, each its own class in a
    campaign (:mod:`engine.conformance.peers.multi`).
* ``edited``: the reference under the fault models given with ``--edit`` (a table value changed, two
  swapped, a row left out, a rejected reading, a skipped step; :mod:`engine.conformance.peers.edited`):
  defective implementations nobody hand-wrote, on which the diagnosis is measured.
"""

from __future__ import annotations

PEERS: dict[str, str] = {
    "reference": "the reference engine (no divergence)",
    "take6_fewest_heads": "6 nimmt!: puts a low card on the row with fewest bullheads without asking",
    "petersburg_free_cards": "Saint Petersburg: forgets the minimum cost of 1 rouble",
    "lenient": "accepts illegal actions and ignores them",
    "crash": "exits the first time a player scores",
    "hang": "stops answering at the first action of the second turn",
    "garbage": "prints a debug line on stdout whenever a single player must act",
    "fork": "starts processes that hold its output (and may exit, hang or answer garbage)",
    "multi": "five switchable defects, one per rule and divergence kind (the campaign test bed)",
    "edited": "the reference under the fault models given with --edit (generated defective peers)",
}
"""Module name (under ``engine.conformance.peers``) → its one-line defect."""
