// The table page: the setup form on "/", the table on "/table/<token>".
// Everything shown comes from the server's JSON (the person's own view and public lines).
"use strict";

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades", X: "Taffies" };
const SUIT_ORDER = ["C", "D", "H", "S", "X"];

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

async function api(method, url, body) {
  const opts = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(url, opts);
  let data = null;
  try {
    data = await r.json();
  } catch (e) {
    data = { error: `the server answered ${r.status}` };
  }
  if (!r.ok) throw new Error(data && data.error ? data.error : `the server answered ${r.status}`);
  return data;
}

// -- cards
function suitOf(code) {
  return code === "X" ? "X" : code.slice(-1);
}

function cardText(code) {
  if (code === "X") return "Taffy";
  const rank = code.slice(0, -1);
  return (rank === "T" ? "10" : rank) + SUITS[code.slice(-1)];
}

function cardNode(code, tag = "span", attrs = {}) {
  const s = suitOf(code);
  const red = s === "D" || s === "H";
  const node = el(tag, { class: `card ${red ? "red" : "black"}${s === "X" ? " taffy" : ""}`, ...attrs });
  if (code === "X") {
    node.append(el("span", { class: "rank", text: "X" }), el("span", { class: "pip", text: "Taffy" }));
  } else {
    const rank = code.slice(0, -1);
    node.append(el("span", { class: "rank", text: rank === "T" ? "10" : rank }),
      el("span", { class: "pip", text: SUITS[s] }));
  }
  node.title = cardText(code);
  return node;
}

function moveText(move) {
  // a move as records write it, in words a card player knows
  if (move === "draw") return "Draw from the stock";
  if (move === "pass") return "Pass";
  if (move === "nochallenge") return "No challenge";
  let m = /^challenge=(\d+)$/.exec(move);
  if (m) return `Challenge seat ${m[1]}`;
  m = /^X=([CDHS])$/.exec(move);
  if (m) return `Lead a Taffy as ${SUIT_NAMES[m[1]]} ${SUITS[m[1]]}`;
  if (/^(?:[2-9TJQKA][CDHS]|X)$/.test(move)) return cardText(move);
  return move;
}

// -- the setup form
async function setupPage(section) {
  const form = document.getElementById("setup-form");
  const gameSel = document.getElementById("f-game");
  const presetSel = document.getElementById("f-preset");
  const seatSel = document.getElementById("f-seat");
  const optionsBox = document.getElementById("f-options");
  const playersBox = document.getElementById("f-players");
  const errorBox = document.getElementById("setup-error");
  const docsBox = document.getElementById("f-player-docs");
  let games = {};
  try {
    const data = await api("GET", "/api/games");
    for (const g of data.games) games[g.name] = g;
  } catch (e) {
    errorBox.textContent = e.message;
    return;
  }

  function current() {
    return games[gameSel.value];
  }

  function seatsNow() {
    const g = current();
    const typed = optionsBox.querySelector('[name="opt-players"]');
    const n = typed && typed.value !== "" ? parseInt(typed.value, 10) : NaN;
    return Number.isInteger(n) && n >= 1 && n <= 16 ? n : g.seats[presetSel.value];
  }

  function drawOptions() {
    const g = current();
    const defaults = g.defaults[presetSel.value] || {};
    optionsBox.replaceChildren();
    for (const o of g.options) {
      const name = `opt-${o.key}`;
      let input;
      if (o.choices) {
        input = el("select", { name, "data-key": o.key });
        input.append(el("option", { value: "", text: `${defaults[o.key] ?? ""} (preset)` }));
        for (const c of o.choices) input.append(el("option", { value: c, text: c }));
      } else {
        input = el("input", { name, "data-key": o.key, type: "text", placeholder: defaults[o.key] ?? "",
          size: 8 });
      }
      if (o.key === "players") input.addEventListener("input", drawSeats);
      optionsBox.append(el("label", { class: "option" },
        el("span", { class: "key", text: o.key }), input, el("span", { class: "doc", text: o.doc })));
    }
  }

  function drawSeats() {
    const g = current();
    const n = seatsNow();
    const keepSeat = seatSel.value;
    const kept = [...playersBox.querySelectorAll("select")].map((s) => s.value);
    seatSel.replaceChildren();
    playersBox.replaceChildren();
    for (let q = 0; q < n; q++) {
      seatSel.append(el("option", { value: q, text: `seat ${q}` }));
      const sel = el("select", { name: `player-${q}`, "data-seat": q });
      for (const p of g.players) {
        sel.append(el("option", { value: p.name, text: p.name + (p.name === g.default_player ? " (default)" : ""),
          title: p.doc }));
      }
      sel.value = kept[q] || g.default_player;
      playersBox.append(el("label", { class: "player" }, el("span", { text: `seat ${q}` }), sel));
    }
    const hint = el("select", { name: "hint", id: "f-hint" });
    for (const p of g.players) hint.append(el("option", { value: p.name, text: p.name, title: p.doc }));
    hint.value = g.default_player;
    playersBox.append(el("label", { class: "player" }, el("span", { text: "hint" }), hint));
    seatSel.value = keepSeat && Number(keepSeat) < n ? keepSeat : "0";
    markYou();
    docsBox.replaceChildren(...g.players.map((p) => el("span", { class: "pdoc" },
      el("b", { text: p.name }), `: ${p.doc}`)));
  }

  function markYou() {
    for (const sel of playersBox.querySelectorAll("select[data-seat]")) {
      const you = sel.dataset.seat === seatSel.value;
      sel.disabled = you;
      sel.parentElement.classList.toggle("you", you);
      sel.title = you ? "your seat: the hint player below answers the Hint button" : "";
    }
  }

  function drawGame() {
    const g = current();
    presetSel.replaceChildren(...g.presets.map((p) => el("option", { value: p, text: p })));
    drawOptions();
    drawSeats();
  }

  gameSel.addEventListener("change", drawGame);
  presetSel.addEventListener("change", () => {
    drawOptions();
    drawSeats();
  });
  seatSel.addEventListener("change", markYou);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    errorBox.textContent = "";
    const rules = {};
    for (const input of optionsBox.querySelectorAll("[data-key]")) {
      if (input.value.trim() !== "") rules[input.dataset.key] = input.value.trim();
    }
    const players = [...playersBox.querySelectorAll("select[data-seat]")].map((s) => s.value);
    const body = { game: gameSel.value, preset: presetSel.value, rules, players,
      seat: seatSel.value, seed: document.getElementById("f-seed").value,
      hint: document.getElementById("f-hint").value };
    const button = document.getElementById("f-deal");
    button.disabled = true;
    try {
      const state = await api("POST", "/api/tables", body);
      window.location.assign(state.url);
    } catch (e) {
      errorBox.textContent = e.message;
      button.disabled = false;
    }
  });
  drawGame();
  section.dataset.ready = "1";
}

// -- the table
function tablePage(section) {
  const token = section.dataset.token;
  const base = `/api/tables/${token}`;
  const $ = (id) => document.getElementById(id);
  let state = null;
  let busy = false;
  let seenLog = 0;
  let reviewed = false;

  function setBusy(on) {
    busy = on;
    section.classList.toggle("busy", on);
  }

  async function act(method, path, body) {
    if (busy) return null;
    setBusy(true);
    $("t-error").textContent = "";
    try {
      return await api(method, base + path, body);
    } catch (e) {
      $("t-error").textContent = e.message;
      return null;
    } finally {
      setBusy(false);
    }
  }

  async function play(move) {
    const s = await act("POST", "/move", { move });
    if (s) draw(s);
  }

  function seatName(q) {
    return q === state.seat ? "you" : `seat ${q}`;
  }

  function drawSeats() {
    const box = $("t-seats");
    box.replaceChildren();
    for (const row of state.seats) {
      const q = row.seat;
      const figures = [];
      if ("side" in row) figures.push(`side ${row.side}`);
      if ("tricks" in row) figures.push(`${row.tricks} ${row.tricks === 1 ? "trick" : "tricks"}`);
      if ("points" in row) figures.push(`${row.points} points`);
      if ("cards_won" in row) figures.push(`${row.cards_won} cards won`);
      figures.push(`${row.hand} in hand`);
      const voids = row.shown_void_in && row.shown_void_in !== "-" ? row.shown_void_in : "";
      box.append(el("div", { class: `seat${q === state.seat ? " you" : ""}${q === state.to_move ? " to-move" : ""}`,
        "data-seat": q },
        el("div", { class: "seat-name", text: q === state.seat ? `Seat ${q} · you` : `Seat ${q} · ${row.player}` }),
        el("div", { class: "seat-figures", text: figures.join(" · ") }),
        el("div", { class: "seat-voids", text: voids ? `void in ${voids}` : "" })));
    }
  }

  function drawTrick() {
    // the trick on the table; between tricks, the last one, faded
    const box = $("t-trick");
    box.replaceChildren();
    const last = !state.trick.length && state.last_trick;
    const plays = last ? state.last_trick.plays : state.trick;
    for (const [q, c] of plays) {
      const shown = c === "pass" ? el("div", { class: "pass", text: "pass" })
        : c.startsWith("X=") ? cardNode("X") : cardNode(c);
      box.append(el("div", { class: "played" }, shown, el("div", { class: "who", text: seatName(q) })));
    }
    box.classList.toggle("last", !!last);
    $("t-trick-label").textContent = state.trick.length ? "the trick"
      : last ? `the last trick: ${seatName(state.last_trick.winner)} won it` : "no trick on the table";
  }

  function drawHand() {
    const box = $("t-hand");
    box.replaceChildren();
    const legal = new Set(state.legal);
    const taffyLeads = state.legal.filter((m) => m.startsWith("X="));
    const bySuit = {};
    for (const c of state.hand) (bySuit[suitOf(c)] ||= []).push(c);
    for (const s of SUIT_ORDER) {
      if (!bySuit[s]) continue;
      const row = el("div", { class: "suit-row" }, el("span", { class: `suit-label ${s === "D" || s === "H" ? "red" : ""}`,
        text: s === "X" ? "Taffies" : SUITS[s], title: SUIT_NAMES[s] }));
      for (const c of bySuit[s]) {
        const ok = legal.has(c) || (c === "X" && taffyLeads.length > 0);
        const node = cardNode(c, "button", { type: "button", "data-card": c, disabled: !ok || state.over,
          "data-names-suit": c === "X" && !legal.has(c) && ok ? "1" : null });
        node.classList.toggle("legal", ok);
        if (ok) {
          node.addEventListener("click", () => {
            if (legal.has(c)) play(c);
            else $("t-moves").querySelector("button")?.focus();  // a Taffy led: name its suit below
          });
        }
        row.append(node);
      }
      box.append(row);
    }
    if (!state.hand.length) box.append(el("p", { class: "muted", text: "your hand is empty" }));
  }

  function drawMoves() {
    const box = $("t-moves");
    box.replaceChildren();
    const inHand = new Set(state.hand);
    for (const m of state.legal) {
      if (inHand.has(m)) continue;  // cards are played from the hand
      box.append(el("button", { type: "button", class: "move", "data-move": m, text: moveText(m),
        onclick: () => play(m) }));
    }
  }

  function drawStatus() {
    let text;
    if (state.over) text = "The deal is over.";
    else if (state.your_move) text = state.legal.length ? "Your move." : "";
    else text = `Seat ${state.to_move} to move.`;
    $("t-status").textContent = text;
    $("t-status").classList.toggle("yours", !!state.your_move);
  }

  function drawFacts() {
    $("t-facts").replaceChildren(...state.facts.map((f) => el("li", { text: f })),
      el("li", { class: "muted", text: `seed ${state.seed}; you are seat ${state.seat}` }));
  }

  function drawLog() {
    const box = $("t-log");
    box.replaceChildren();
    state.log.forEach((e, i) => {
      e.lines.forEach((line, k) => {
        box.append(el("li", { class: `${e.yours && k === 0 ? "yours" : ""}${i >= seenLog ? " new" : ""}`,
          text: e.forced && k === 0 ? `${line} (your only move)` : line }));
      });
    });
    seenLog = state.log.length;
    box.scrollTop = box.scrollHeight;
  }

  function trickNode(t) {
    return el("div", { class: "trick-row" },
      el("span", { class: "trick-no", text: `trick ${t.number}` }),
      ...t.plays.map(([q, c]) => el("span", { class: "trick-play" },
        el("span", { class: "who", text: `${seatName(q)}: ` }),
        c === "pass" ? el("span", { text: "pass" })
          : c.startsWith("X=") ? el("span", { text: `Taffy as ${SUITS[c.slice(2)]}` }) : cardNode(c))),
      el("span", { class: "winner", text: t.winner === null ? "" : `→ ${seatName(t.winner)} won it` }));
  }

  function drawLast() {
    const box = $("t-lasttrick");
    box.replaceChildren();
    if (state.last_trick) box.append(el("h3", { text: "The last trick" }), trickNode(state.last_trick));
    else box.append(el("p", { class: "muted", text: "no trick is complete yet" }));
  }

  async function drawAfter() {
    $("t-after").hidden = !state.over;
    if (!state.over || reviewed) return;
    reviewed = true;
    $("t-record").href = `${base}/record.jsonl`;
    const r = state.result;
    $("t-result").replaceChildren(el("p", { text: resultText(r) }));
    const review = await act("GET", "/review");
    if (!review) {
      reviewed = false;
      return;
    }
    $("t-account").replaceChildren(...review.tricks.map(trickNode));
    const costs = $("t-costs");
    costs.className = "";
    if (!review.costs) {
      costs.className = "muted";
      costs.textContent = review.costs_note;
      return;
    }
    const unit = review.cost_unit;
    const table = el("table", { class: "data costs" }, el("tr", {}, el("th", { text: "move" }),
      el("th", { text: "your card" }), el("th", { text: "best cards there" }), el("th", { text: `cost (${unit}s)` })));
    for (const row of review.costs) {
      table.append(el("tr", { class: row.cost > 0 ? "lost" : "" }, el("td", { text: row.move }),
        el("td", {}, cardNode(row.card)),
        el("td", { text: row.cost > 0 ? row.best.map(cardText).join(" ") : row.revoke ? "a revoke" : "yours was one" }),
        el("td", { text: row.cost })));
    }
    const total = review.cost_total;
    const side = state.seats[state.seat].side;
    const par = el("p", { class: "muted", text: unit === "trick"
      ? `Open-hand par for side 0 at the first lead: ${review.par} trick${review.par === 1 ? "" : "s"}; the deal gave it ${review.made}. You are side ${side}.`
      : `Open-hand par at the first lead: side 0 ${review.par >= 0 ? "ahead" : "behind"} by ${Math.abs(review.par)} points; the deal ended with a margin of ${review.made}. You are side ${side}.` });
    costs.replaceChildren(el("p", { text: total > 0
      ? `Perfect open-hand play from your seat would have made ${total} ${unit}${total === 1 ? "" : "s"} more.`
      : "Every card you played was as good as perfect open-hand play." }), par, table);
  }

  function resultText(r) {
    if (!r) return "";
    const parts = [];
    for (const [k, v] of Object.entries(r)) {
      if (Array.isArray(v) && v.length && v.every((x) => typeof x === "number")) parts.push(`${k.replace(/_/g, " ")}: ${v.join(", ")}`);
    }
    return parts.join("; ");
  }

  function draw(s) {
    state = s;
    $("t-title").textContent = s.title;
    drawStatus();
    drawSeats();
    drawTrick();
    drawMoves();
    drawHand();
    drawFacts();
    drawLog();
    drawLast();
    $("b-hint").disabled = !s.your_move || s.over;
    $("b-undo").disabled = !s.can_undo;
    $("b-last").disabled = !s.last_trick;
    $("t-hint").textContent = "";
    drawAfter();
    section.dataset.moves = s.log.length;
    section.dataset.over = s.over ? "1" : "0";
  }

  $("b-hint").addEventListener("click", async () => {
    const h = await act("POST", "/hint");
    if (h) $("t-hint").textContent = `${h.player} would play ${moveText(h.hint)}`;
  });
  $("b-undo").addEventListener("click", async () => {
    const s = await act("POST", "/undo");
    if (s) {
      seenLog = 0;
      draw(s);
    }
  });
  $("b-last").addEventListener("click", () => {
    $("t-lasttrick").hidden = !$("t-lasttrick").hidden;
  });
  act("GET", "").then((s) => {
    if (s) {
      seenLog = s.log.length;
      draw(s);
    }
  });
}

document.addEventListener("DOMContentLoaded", () => {
  const setup = document.getElementById("setup");
  if (setup) setupPage(setup);
  const table = document.getElementById("table");
  if (table) tablePage(table);
});
