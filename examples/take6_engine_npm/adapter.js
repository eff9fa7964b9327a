#!/usr/bin/env node
// Peer adapter: speaks the `arbiter fuzz` line protocol (docs/fuzzing.md) on stdin/stdout and drives the
// npm package take6-engine (https://www.npmjs.com/package/take6-engine, MIT) underneath.
//
//   cd examples/take6_engine_npm && npm install
//   arbiter fuzz --peer 'node examples/take6_engine_npm/adapter.js' --game take6 --variant standard
//
// Mapping (kept thin on purpose, so a divergence is the package's, not the adapter's):
// * new: the package deals from its own seed; the adapter then overwrites hands and row starters with the
//   explicit deal of round 1, and again with deal k each time the package starts round k.
//   Our variant "professional" is the package's option {pro: true}; "standard" is {pro: false}.
// * select  -> move {name: "chooseCard", data: card}
// * take_row -> move {name: "placeCard", data: {row, replace: true}}
// * A placement with a single option (the package asks for it; our rules place it automatically) is
//   applied by the adapter at once, like the package's own wrapper does ("automove").
// * state: to_act = seats with available moves; scores = the package's scores(); claims: rows, hands.
"use strict";

const readline = require("readline");
const engine = require("take6-engine/dist/src/engine");
const { availableMoves } = require("take6-engine/dist/src/available-moves");
const { getCard } = require("take6-engine/dist/src/card");
const pkg = require("take6-engine/package.json");

let G = null;
let deals = [];
let dealt = 0;

function reply(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

function refuse(error, message) {
  reply({ ok: false, error, message: String(message) });
}

function applyDeal(round) {
  // Overwrite the package's own shuffle with our explicit deal of `round` (1-based).
  const deal = deals[round - 1];
  if (!deal) return;
  G.players.forEach((pl, i) => { pl.hand = deal.hands[i].map(getCard); });
  G.rows = deal.rows.map((c) => [getCard(c)]);
  for (const pl of G.players) {
    if (pl.availableMoves) pl.availableMoves = availableMoves(G, pl);
  }
  dealt = round;
}

function automove() {
  // Forced placements (one option) are not decisions in our rules.
  for (;;) {
    const i = G.players.findIndex((pl) => pl.availableMoves && pl.availableMoves.placeCard &&
                                          pl.availableMoves.placeCard.length === 1);
    if (i < 0) return;
    G = engine.move(G, { name: "placeCard", data: G.players[i].availableMoves.placeCard[0] }, i);
    if (G.round > dealt) applyDeal(G.round);
  }
}

function toAct() {
  return G.players.map((pl, i) => (pl.availableMoves ? i : -1)).filter((i) => i >= 0);
}

function legal(p) {
  const am = G.players[p] && G.players[p].availableMoves;
  if (!am) return [];
  if (am.chooseCard) return am.chooseCard.map((c) => ({ type: "select", player: p, card: c.number }));
  if (am.placeCard) return am.placeCard.map((o) => ({ type: "take_row", player: p, row: o.row }));
  return [];
}

function handle(req) {
  switch (req.cmd) {
    case "hello":
      return reply({ ok: true, protocol: 1, name: `take6-engine ${pkg.version} (npm) via adapter`,
                     games: { take6: ["standard", "professional"] } });
    case "new": {
      if (req.game !== "take6") return refuse("unsupported", `no game ${req.game}`);
      if (req.variant !== "standard" && req.variant !== "professional") {
        return refuse("unsupported", `no variant ${req.variant}`);
      }
      deals = req.setup;
      G = engine.setup(req.players, { pro: req.variant === "professional" }, "arbiter");
      applyDeal(1);
      return reply({ ok: true });
    }
    case "state": {
      const over = engine.ended(G);
      const scores = engine.scores(G);
      const out = {
        ok: true, to_act: toAct(), terminal: over, scores,
        claims: {
          rows: G.rows.map((r) => r.map((c) => c.number)),
          hands: G.players.map((pl) => pl.hand.map((c) => c.number).sort((a, b) => a - b)),
        },
      };
      if (over) {
        const low = Math.min(...scores);
        out.winners = scores.map((s, i) => (s === low ? i : -1)).filter((i) => i >= 0);
      }
      return reply(out);
    }
    case "legal":
      return reply({ ok: true, actions: legal(req.player) });
    case "apply": {
      const a = req.action;
      const move = a.type === "select" ? { name: "chooseCard", data: getCard(a.card) }
        : a.type === "take_row" ? { name: "placeCard", data: { row: a.row, replace: true } } : null;
      if (!move) return refuse("illegal", `unknown action type ${a.type}`);
      const backup = JSON.parse(JSON.stringify(G));
      try {
        G = engine.move(G, move, req.player);
        if (G.round > dealt) applyDeal(G.round);
        automove();
      } catch (e) {
        G = backup;
        return refuse("illegal", e.message);
      }
      return reply({ ok: true });
    }
    case "quit":
      process.exit(0);
      break;
    default:
      return refuse("bad-request", `unknown cmd ${req.cmd}`);
  }
}

const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  if (!line.trim()) return;
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    return refuse("bad-request", "not JSON");
  }
  handle(req);
});
