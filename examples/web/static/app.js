// The page: draws the table from the public view the server sends, and turns
// clicks into moves in crapette's notation. It knows no rule of the game: the
// legal moves come from the server, and so does the reason a move is illegal.
"use strict";

const params = new URLSearchParams(location.search);
// Milliseconds between two moves of the computer (?delay=0 for no pause).
const BOT_DELAY = Math.max(0, Number(params.get("delay") ?? 400)) || 0;
const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };

let game = null; // the game as the server last sent it
let selected = null; // {pile, count}: the cards picked up, waiting for a target
let hinted = null; // the first move of the plan the last hint suggested
let botTimer = null;
let busy = false; // a request that changes the game is on its way

const $ = (selector) => document.querySelector(selector);

// Talking to the server ------------------------------------------------------

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw new Error("the server does not answer: is it still running?");
  }
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = null;
  }
  if (!response.ok) {
    const error = new Error((data && data.error) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

const gamePath = (suffix = "") => `/api/games/${encodeURIComponent(game.id)}${suffix}`;

function say(text, kind = "") {
  const box = $("#message");
  box.textContent = text;
  box.className = kind;
}

function setGame(next, animate) {
  game = next;
  selected = null;
  hinted = null;
  sessionStorage.setItem("crapette-game", game.id);
  render(animate);
  scheduleBot();
}

function setBusy(value) {
  busy = value;
  document.body.dataset.busy = value ? "1" : "0";
}

async function deal(body) {
  clearTimeout(botTimer);
  setBusy(true);
  try {
    setGame(await api("POST", "/api/games", body), false);
    say("");
    return true;
  } catch (error) {
    say(error.message, "error");
    return false;
  } finally {
    setBusy(false);
  }
}

async function change(method, suffix, body, onIllegal, animate = true) {
  if (busy) return;
  setBusy(true);
  try {
    setGame(await api(method, gamePath(suffix), body), animate);
    // A card moved shows on the table; a draw, an end of turn or a pass is said in words.
    const last = game.moves[game.moves.length - 1];
    const said = body && body.move && last && last.player === game.seat && ["draw", "end", "pass"].includes(last.move);
    say(said ? `You ${last.text}.` : "");
  } catch (error) {
    say(error.message, "error");
    render(false);
    if (error.status === 422 && onIllegal) onIllegal();
  } finally {
    setBusy(false);
  }
}

const play = (move, onIllegal) => change("POST", "/moves", { move }, onIllegal);

// The computer plays one move per request, with a pause between them: a full
// pause before a move that changes the table, a short one after a draw or an
// end of turn, so that long stretches of drawing go by quickly.
function scheduleBot(delay) {
  clearTimeout(botTimer);
  if (!game || game.turn !== "bot") return;
  if (delay === undefined) {
    const last = game.moves.length ? game.moves[game.moves.length - 1] : null;
    const quick = last && last.player !== game.seat && ["draw", "end", "pass"].includes(last.move);
    delay = quick ? BOT_DELAY / 4 : BOT_DELAY;
  }
  botTimer = setTimeout(botStep, delay);
}

async function botStep() {
  const id = game.id;
  try {
    const next = await api("POST", gamePath("/bot"));
    if (game.id !== id) return;
    setGame(next, true);
    if (next.turn !== "bot") say(turnSummary(next, 1 - next.seat));
  } catch (error) {
    if (game.id !== id) return;
    if (error.status === 503) {
      // The server's workers are busy: the computer tries again in a moment.
      say("The server is busy: the computer will play in a moment\u2026");
      scheduleBot(1500);
    } else say(error.message, "error");
  }
}

// One line for the last turn of `player`: its moves in words (the server words them), the
// middle of a long turn left out.
function turnSummary(g, player) {
  let i = g.moves.length;
  while (i > 0 && g.moves[i - 1].player === player) i--;
  const texts = g.moves.slice(i).map((m) => m.text || m.move);
  if (!texts.length) return "";
  const shown = texts.length > 6 ? [...texts.slice(0, 2), `\u2026 ${texts.length - 5} more moves \u2026`, ...texts.slice(-3)] : texts;
  return `The computer's turn: ${shown.join("; ")}.`;
}

// Where everything lies --------------------------------------------------------

function pileCards(pile) {
  const v = game.view;
  const i = Number(pile.slice(1));
  switch (pile[0]) {
    case "F": return v.foundations[i];
    case "T": return v.tableau[i];
    case "W": return v.wastes[i];
    default: return null; // reserves and hands are mostly face down
  }
}

function pileSize(pile) {
  const v = game.view;
  const i = Number(pile.slice(1));
  if (pile[0] === "R") return v.reserve_sizes[i];
  if (pile[0] === "H") return v.hand_sizes[i];
  return pileCards(pile).length;
}

// Pile positions for a table `width` pixels wide, seen from `seat`, that fits
// in `maxHeight` pixels if it can.
function layout(width, seat, maxHeight) {
  const top = 1 - seat;
  const bottom = seat;
  const piles = {};
  const labels = [];
  let cw, height;
  const rowOf = (player, y, cx, gap) => {
    piles[`R${player}`] = { x: cx - 1.5 * cw - gap, y };
    piles[`H${player}`] = { x: cx - 0.5 * cw, y };
    piles[`W${player}`] = { x: cx + 0.5 * cw + gap, y };
  };
  if (width >= 700) {
    // A real table: the foundations in two columns in the middle, each deck's
    // tableau piles fanned out to one side, and each player's reserve, hand and
    // waste in a column at the outer edge of their side (the bottom player's on
    // the left, the top player's on the right): four rows of cards in all, so
    // the cards can be large. The height is 5.6 card widths plus 128 pixels.
    cw = Math.max(40, Math.min(84, Math.floor((width / 2 - 42) / 5), Math.floor((maxHeight - 128) / 5.6)));
    const ch = Math.round(cw * 1.4);
    const lab = 18;
    const cx = width / 2;
    const fl = Math.round(cx - 6 - cw);
    const fr = Math.round(cx + 6);
    const tl = fl - 14 - cw;
    const tr = fr + cw + 14;
    const left = 10;
    const right = width - 10 - cw;
    const pitch = ch + lab + 6;
    const rowY = (r) => lab + r * pitch;
    for (let r = 0; r < 4; r++) {
      const y = rowY(r);
      piles[`T${4 * bottom + r}`] = { x: tl, y, fan: -1, room: tl - (left + cw + 14), step: 0.42 * cw };
      piles[`T${4 * top + r}`] = { x: tr, y, fan: 1, room: right - 14 - tr - cw, step: 0.42 * cw };
      piles[`F${r}`] = { x: fl, y };
      piles[`F${4 + r}`] = { x: fr, y };
      labels.push({ pile: `T${4 * bottom + r}`, x: tl + cw, y: y - lab + 2, align: "right" });
      labels.push({ pile: `T${4 * top + r}`, x: tr, y: y - lab + 2 });
      labels.push({ pile: `F${r}`, x: fl + cw / 2, y: y - lab + 2, align: "center" });
      labels.push({ pile: `F${4 + r}`, x: fr + cw / 2, y: y - lab + 2, align: "center" });
    }
    // The top player: reserve, hand, waste from the top down, the name under them;
    // the bottom player: the name, then waste, hand, reserve down to the bottom.
    ["R", "H", "W"].forEach((k, i) => {
      piles[`${k}${top}`] = { x: right, y: rowY(i) };
      piles[`${k}${bottom}`] = { x: left, y: rowY(3 - i) };
    });
    for (const p of [top, bottom]) {
      for (const k of "RHW") labels.push({ pile: `${k}${p}`, x: piles[`${k}${p}`].x + cw / 2, y: piles[`${k}${p}`].y - lab + 2, align: "center" });
    }
    labels.push({ player: top, x: width - 8, y: rowY(3) + 2, align: "right", width: cw + 12 });
    labels.push({ player: bottom, x: 8, y: rowY(0) + 2, width: cw + 12 });
    height = rowY(4) - 6 - lab + 16; // room for the count badges under the last row
  } else {
    // A narrow screen: the foundations in a row, every tableau pile a row of its own.
    cw = Math.max(30, Math.min(60, Math.floor((width - 7 * 4 - 4) / 8)));
    const ch = Math.round(cw * 1.4);
    const lab = 15;
    const cx = width / 2;
    const gutter = 24;
    const fy = lab + ch + 8 + lab;
    const fx = Math.round((width - 8 * cw - 7 * 4) / 2);
    for (let i = 0; i < 8; i++) {
      piles[`F${i}`] = { x: fx + i * (cw + 4), y: fy };
      labels.push({ pile: `F${i}`, x: fx + i * (cw + 4) + cw / 2, y: fy - lab + 1, align: "center" });
    }
    const t0 = fy + ch + 10;
    // Rows overlap when the screen is short, down to showing each card's corner.
    const fixed = t0 + ch + lab + 2 + ch + 14;
    const pitch = Math.round(Math.max(0.62 * ch, Math.min(ch + 5, (maxHeight - fixed) / 7)));
    const order = [0, 1, 2, 3].map((r) => 4 * top + r).concat([0, 1, 2, 3].map((r) => 4 * bottom + r));
    order.forEach((t, r) => {
      const y = t0 + r * pitch;
      piles[`T${t}`] = { x: gutter, y, fan: 1, room: width - 4 - gutter - cw, step: 0.5 * cw, z: 10 + 20 * r };
      labels.push({ pile: `T${t}`, x: 2, y: y + ch / 2 - 8 });
    });
    const by = t0 + 8 * pitch + lab + 2;
    const rx = width - 1.5 * cw - 0.35 * cw - 8; // the player's piles to the right, the name to the left
    rowOf(top, lab, rx, cw * 0.35);
    rowOf(bottom, by, rx, cw * 0.35);
    height = by + ch + 14;
    for (const p of [top, bottom]) {
      const y = p === top ? lab : by;
      for (const k of "RHW") labels.push({ pile: `${k}${p}`, x: piles[`${k}${p}`].x + cw / 2, y: y - lab + 1, align: "center" });
      labels.push({ player: p, x: 4, y: y + ch / 2 - 10 });
    }
  }
  return { cw, ch: Math.round(cw * 1.4), height, piles, labels };
}

function cardPosition(L, pile, index, count) {
  const slot = L.piles[pile];
  if (!slot.fan || count <= 1) return { x: slot.x, y: slot.y };
  const step = Math.min(slot.step, slot.room / (count - 1));
  return { x: slot.x + slot.fan * index * step, y: slot.y };
}

// Drawing ------------------------------------------------------------------------

function element(tag, className, attributes = {}) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

function place(node, x, y, z) {
  node.style.left = `${Math.round(x)}px`;
  node.style.top = `${Math.round(y)}px`;
  if (z !== undefined) node.style.zIndex = z;
  return node;
}

function faceCard(card, pile, index) {
  const rank = card[0] === "T" ? "10" : card[0];
  const suit = SUITS[card[1]];
  const colour = card[1] === "H" || card[1] === "D" ? "red" : "black";
  const node = element("div", `card ${colour}`, {
    "data-card": card, "data-pile": pile, "data-index": index, title: `${card} on ${pile}`,
  });
  const ten = rank === "10" ? " ten" : "";
  for (const side of ["l", "r"]) {
    const corner = element("span", `ix ${side}${ten}`);
    corner.append(rank, document.createElement("br"), suit);
    node.append(corner);
  }
  const pip = element("span", "pip");
  pip.textContent = suit;
  node.append(pip, element("span", `band d${card[2]}`));
  return node;
}

function backCard(pile, owner) {
  // A face-down card shows the back of the player whose pile it lies in: it tells nothing.
  return element("div", `card back d${owner}`, { "data-pile": pile });
}

function render(animate) {
  if (!game) return;
  const v = game.view;
  const seat = game.seat;
  const table = $("#table");
  const top = table.getBoundingClientRect().top + window.scrollY;
  const L = layout(table.clientWidth, seat, Math.max(420, window.innerHeight - top - 10));
  table.style.height = `${L.height}px`;
  table.style.setProperty("--cw", `${L.cw}px`);
  table.style.setProperty("--ch", `${L.ch}px`);
  table.dataset.moveCount = v.move_count;
  document.body.dataset.turn = game.turn;
  const nodes = [];
  const tops = {}; // pile -> the node a target highlight goes on

  const slot = (pile, text = "") => {
    const node = place(element("div", "slot", { "data-pile": pile }), L.piles[pile].x, L.piles[pile].y, 1);
    if (v.options.tableau_sources === "own" && pile[0] === "T" && Math.floor(Number(pile.slice(1)) / 4) === seat) node.classList.add("mine");
    node.textContent = text;
    nodes.push(node);
    tops[pile] = node;
  };
  const count = (pile, n) => {
    const badge = element("span", "count", { "data-count": pile });
    badge.textContent = n;
    place(badge, L.piles[pile].x + L.cw / 2 - 13, L.piles[pile].y + L.ch - 9);
    nodes.push(badge);
  };

  for (let i = 0; i < 8; i++) {
    const pile = `F${i}`;
    const cards = v.foundations[i];
    if (!cards.length) slot(pile);
    else nodes.push(tops[pile] = place(faceCard(cards[cards.length - 1], pile, cards.length - 1), L.piles[pile].x, L.piles[pile].y, 2));
  }
  for (let i = 0; i < 8; i++) {
    const pile = `T${i}`;
    const cards = v.tableau[i];
    slot(pile);
    cards.forEach((card, index) => {
      const at = cardPosition(L, pile, index, cards.length);
      nodes.push(tops[pile] = place(faceCard(card, pile, index), at.x, at.y, (L.piles[pile].z || 10) + index));
    });
  }
  for (const p of [0, 1]) {
    const { x: rx, y: ry } = L.piles[`R${p}`];
    const reserve = v.reserve_sizes[p];
    if (reserve === 0) slot(`R${p}`);
    else {
      const top = v.reserve_tops[p];
      const node = top ? faceCard(top, `R${p}`, reserve - 1) : backCard(`R${p}`, p);
      if (reserve > 1) node.classList.add("deep");
      nodes.push(tops[`R${p}`] = place(node, rx, ry, 5));
      count(`R${p}`, reserve);
    }
    const hand = v.hand_sizes[p];
    if (hand === 0) slot(`H${p}`, v.wastes[p].length && p === seat ? "\u21bb" : "");
    else {
      const node = backCard(`H${p}`, p);
      if (hand > 1) node.classList.add("deep");
      nodes.push(place(node, L.piles[`H${p}`].x, L.piles[`H${p}`].y, 5));
      count(`H${p}`, hand);
    }
    const waste = v.wastes[p];
    if (!waste.length) slot(`W${p}`);
    else {
      const node = faceCard(waste[waste.length - 1], `W${p}`, waste.length - 1);
      if (waste.length > 1) node.classList.add("deep");
      nodes.push(tops[`W${p}`] = place(node, L.piles[`W${p}`].x, L.piles[`W${p}`].y, 5));
      count(`W${p}`, waste.length);
    }
  }
  // Under rules where each player plays only from their own tableau piles (casual),
  // the player's four are marked.
  const ownPiles = v.options.tableau_sources === "own";
  const isMine = (pile) => pile[0] === "T" && Math.floor(Number(pile.slice(1)) / 4) === seat;
  for (const label of L.labels) {
    const node = element("span", "label");
    if (label.player !== undefined) {
      node.classList.add("player");
      const sep = label.width ? "\n" : " \u00b7 ";
      node.textContent = label.player === seat ? `You${sep}player ${seat}` : `${game.bot} bot${sep}player ${label.player}`;
      if (label.width) node.style.maxWidth = `${label.width}px`;
      if (!v.is_over && v.current_player === label.player) node.classList.add("to-move");
    } else {
      node.textContent = label.pile;
      if (ownPiles && label.pile[0] === "T") {
        node.classList.add(isMine(label.pile) ? "mine" : "theirs");
        if (isMine(label.pile) && L.cw >= 40 && label.align) node.textContent = label.align === "right" ? `yours \u00b7 ${label.pile}` : `${label.pile} \u00b7 yours`;
      }
    }
    place(node, label.x, label.y);
    if (label.align === "center") node.style.transform = "translateX(-50%)";
    if (label.align === "right") node.style.transform = "translateX(-100%)";
    nodes.push(node);
  }
  table.replaceChildren(...nodes);

  // Highlights: the cards picked up, where they may go, the hint, the last move.
  if (selected) {
    const size = pileSize(selected.pile);
    table.querySelectorAll(`.card[data-pile="${selected.pile}"]`).forEach((node) => {
      if (node.dataset.index === undefined || Number(node.dataset.index) >= size - selected.count) node.classList.add("selected");
    });
    for (const move of v.legal_moves) {
      const [source, rest] = move.split("-");
      if (source !== selected.pile || rest === undefined) continue;
      const [target, times] = rest.split("x");
      if (Number(times || 1) === selected.count && tops[target]) tops[target].classList.add("target");
    }
  }
  if (hinted) {
    const [source, rest] = hinted.split("-");
    const piles = rest ? [source, rest.split("x")[0]] : hinted === "draw" ? [`H${seat}`] : [];
    for (const pile of piles) table.querySelectorAll(`[data-pile="${pile}"]`).forEach((n) => n.classList.add("hinted"));
  }
  if (game.moves.length) markLast(table, L, game.moves[game.moves.length - 1], animate);
  renderPanel();
}

// Outline the cards the last move moved, and slide them in from where they were.
function markLast(table, L, last, animate) {
  let source, target, k;
  if (last.move === "draw") [source, target, k] = [`H${last.player}`, `W${last.player}`, 1];
  else if (last.move.includes("-")) {
    const [from, rest] = last.move.split("-");
    const [to, times] = rest.split("x");
    [source, target, k] = [from, to, Number(times || 1)];
  } else return;
  const moved = [...table.querySelectorAll(`.card[data-pile="${target}"]`)].slice(-k);
  const left = source[0] === "H" ? 0 : pileSize(source);
  moved.forEach((node, j) => {
    node.classList.add("last");
    if (!animate) return;
    const from = cardPosition(L, source, left + j, left + k);
    const dx = from.x - parseFloat(node.style.left);
    const dy = from.y - parseFloat(node.style.top);
    const z = node.style.zIndex;
    node.style.zIndex = 500 + j;
    node.style.transform = `translate(${dx}px, ${dy}px)`;
    node.getBoundingClientRect(); // start from there
    node.classList.add("moving");
    node.style.transform = "";
    node.addEventListener("transitionend", () => { node.style.zIndex = z; }, { once: true });
  });
}

// The outcome in words: [who won, why (worded by the server) and the score].
function describeOutcome(outcome, seat) {
  const head = outcome.winner === null ? "Draw" : outcome.winner === seat ? "You win" : "The computer wins";
  const why = game.end || outcome.ending || outcome.reason;
  const score = outcome.scores ? `; score: you ${outcome.scores[seat]}, computer ${outcome.scores[1 - seat]}` : "";
  return [head, `${why}${score}`];
}

function describeMatch(match, seat, over) {
  const totals = `you ${match.totals[seat]}, computer ${match.totals[1 - seat]}`;
  if (match.winner !== null) return `${match.winner === seat ? "You win" : "The computer wins"} the match to ${match.target}: ${totals}`;
  const when = over ? `after ${match.games === 1 ? "1 game" : `${match.games} games`}` : `, game ${match.games + 1}`;
  return `Match to ${match.target}: ${totals} ${when}`.replace(" ,", ",");
}

function renderPanel() {
  const v = game.view;
  const seat = game.seat;
  const legal = v.legal_moves;
  const yours = game.turn === "you";
  // The seed is the whole deal: the server sends it only once the game is over.
  const origin = { position: " \u00b7 set-up position", record: " \u00b7 loaded record" }[game.origin] || "";
  const seed = game.seed === null ? "" : ` \u00b7 seed ${game.seed}`;
  $("#info").textContent = `${v.rules}${origin}${seed} \u00b7 vs ${game.bot} bot`;
  $("#move-number").textContent = `move ${v.move_count}`;
  let status;
  if (game.turn === "over") status = describeOutcome(v.outcome, seat).join(": ");
  else if (!yours) status = "The computer is playing\u2026";
  else if (legal.length === 1 && legal[0] === "pass") status = "Your turn: you cannot move, so pass";
  else if (v.drawn && legal.includes("end")) status = "Your turn: play the drawn card, or End turn";
  else status = "Your turn: click a card, then where it goes";
  $("#status").textContent = status;
  $("#end-turn").hidden = !v.options.end_turn; // casual rules have no End turn
  $("#end-turn").disabled = !(yours && legal.includes("end"));
  $("#pass").disabled = !(yours && legal.includes("pass"));
  $("#undo").disabled = !(game.can_undo && game.turn !== "bot");
  $("#hint").disabled = !yours;

  const list = $("#moves");
  list.replaceChildren();
  let item = null;
  let previous = null;
  for (const { player, move, text: words } of game.moves) {
    if (player !== previous) {
      item = element("li", player === seat ? "you" : "bot");
      const who = element("span", "who");
      who.textContent = player === seat ? "You" : "Bot";
      item.append(who, " ");
      list.append(item);
      previous = player;
    }
    const text = element("span", "move", words ? { title: words } : {});
    text.textContent = move;
    item.append(text, " ");
  }
  list.scrollTop = list.scrollHeight;

  const match = $("#match");
  match.hidden = !game.match;
  if (game.match) match.textContent = describeMatch(game.match, seat, game.turn === "over");

  const over = $("#outcome");
  over.hidden = game.turn !== "over";
  if (!over.hidden) {
    [$("#outcome-text").textContent, $("#outcome-why").textContent] = describeOutcome(v.outcome, seat);
    $("#outcome-match").textContent = game.match ? describeMatch(game.match, seat, game.turn === "over") : "";
  }
  const record = gamePath("/record");
  $("#save").href = record;
  $("#save-text").href = `${record}?format=text`;
}

// Clicks ----------------------------------------------------------------------------

function pickCount(pile, index) {
  return pile[0] === "T" && index !== null ? pileSize(pile) - index : 1;
}

function isSource(pile) {
  return game.view.legal_moves.some((move) => move.startsWith(`${pile}-`));
}

function clickPile(pile, index) {
  if (busy || !game) return;
  if (game.turn === "over") return say("The game is over: start a new one.");
  if (game.turn !== "you") return say("Wait: the computer is playing.");
  if (pile[0] === "H") {
    selected = null;
    if (pile !== `H${game.seat}`) return say("That is the computer's hand: click your own hand to draw.", "error");
    return play("draw");
  }
  const count = pickCount(pile, index);
  if (selected) {
    if (selected.pile === pile) {
      selected = selected.count === count ? null : { pile, count };
      return render(false);
    }
    const move = selected.count > 1 ? `${selected.pile}-${pile}x${selected.count}` : `${selected.pile}-${pile}`;
    selected = null;
    // If the move is illegal and the clicked pile could move, pick it up instead.
    return play(move, () => {
      if (isSource(pile)) {
        selected = { pile, count };
        render(false);
      }
    });
  }
  if (pile[0] === "F") return say("Cards on a foundation stay there: pick up a card, then click the foundation.");
  if (pileSize(pile) === 0) return say(`${pile} is empty: pick up a card first.`);
  selected = { pile, count };
  say("");
  render(false);
}

function doubleClickPile(pile) {
  if (busy || !game || game.turn !== "you") return;
  const move = game.view.legal_moves.find((m) => m.startsWith(`${pile}-F`));
  if (move) {
    selected = null;
    play(move);
  }
}

function settings() {
  const body = { rules: $("#rules").value.trim() || "classic", bot: $("#bot").value, seat: Number($("#seat").value) };
  const seed = $("#seed").value.trim();
  if (seed !== "") body.seed = /^\d+$/.test(seed) ? Number(seed) : seed;
  return body;
}

function readFile(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file);
  });
}

function wire() {
  const table = $("#table");
  const target = (event) => event.target.closest("[data-pile]");
  table.addEventListener("click", (event) => {
    const node = target(event);
    if (node) clickPile(node.dataset.pile, node.dataset.index === undefined ? null : Number(node.dataset.index));
  });
  table.addEventListener("dblclick", (event) => {
    const node = target(event);
    if (node) doubleClickPile(node.dataset.pile);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && selected) {
      selected = null;
      render(false);
    }
  });
  $("#end-turn").addEventListener("click", () => play("end"));
  $("#pass").addEventListener("click", () => play("pass"));
  $("#undo").addEventListener("click", () => change("POST", "/undo", undefined, null, false));
  $("#hint").addEventListener("click", async () => {
    if (busy) return;
    setBusy(true);
    try {
      const { move, moves, texts } = await api("GET", gamePath("/hint"));
      hinted = move; // the first move is highlighted; the message shows the whole plan
      render(false);
      const plan = (moves || [move]).map((m, i) => (texts && texts[i] ? `${m} (${texts[i]})` : m));
      say(`Hint: ${plan.join(", ")}`, "hint");
    } catch (error) {
      say(error.message, "error");
    } finally {
      setBusy(false);
    }
  });
  $("#new").addEventListener("click", () => {
    const setup = $("#setup");
    setup.open = true;
    setup.scrollIntoView({ block: "nearest" });
    $("#seed").focus();
  });
  $("#new-form").addEventListener("submit", (event) => {
    event.preventDefault();
    deal(settings());
  });
  $("#next-game").addEventListener("click", () => {
    deal({ rules: game.view.rules, bot: game.bot, seat: game.seat, previous: game.id });
  });
  $("#position-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const { bot, seat } = settings();
    if (await deal({ position: $("#position").value.trim(), bot, seat })) $("#position").value = "";
  });
  $("#load").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    try {
      await deal({ record: await readFile(file) });
    } catch (error) {
      say(`cannot read ${file.name}: ${error.message}`, "error");
    }
    event.target.value = "";
  });
  let pending = false;
  window.addEventListener("resize", () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      render(false);
    });
  });
}

async function start() {
  wire();
  for (const key of ["rules", "seed", "bot", "seat"]) {
    if (params.has(key)) $(`#${key}`).value = params.get(key);
  }
  // A link with a deal in it deals it; otherwise the tab's game goes on after a reload.
  const id = sessionStorage.getItem("crapette-game");
  if (id && !["rules", "seed"].some((key) => params.has(key))) {
    try {
      setGame(await api("GET", `/api/games/${encodeURIComponent(id)}`), false);
      return;
    } catch (error) {
      if (error.status !== 404) return say(error.message, "error");
    }
  }
  await deal(settings());
}

start();
