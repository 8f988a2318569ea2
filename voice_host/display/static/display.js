// The scoreboard: draws the state the host sends (voice_host/display/view.py's shape)
// and follows it through server-sent events. Read-only: it never sends anything back.
// Every name and word goes in as text (textContent), never as markup.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  let lastSaid = 0;       // the number of the last sentence shown
  let timer = null;       // {label, left, holder, at}: counted down here between updates

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  function facts(list, into) {
    clear(into);
    for (const f of list) {
      const row = el("div", f.key ? "fact key" : "fact");  // key: the fact the table plays on (Phlounder's dice)
      row.appendChild(el("dt", null, f.label));
      row.appendChild(el("dd", null, f.value));
      into.appendChild(row);
    }
  }

  function board(b) {
    const section = $("board-section"), into = $("board");
    section.hidden = !b;
    clear(into);
    if (!b) return;
    $("board-heading").textContent = b.label;
    for (const column of b.columns) {
      const col = el("div", "column");
      col.setAttribute("role", "group");
      col.setAttribute("aria-label", "Column worth " + column.label);
      col.appendChild(el("h3", "column-label", column.label));
      const tiles = el("ul", "tiles");
      if (!column.tiles.length) tiles.appendChild(el("li", "tile empty", "empty"));
      for (const t of column.tiles) {
        const tile = el("li", t.bonus ? "tile rare" : "tile");
        tile.dataset.letter = t.letter;
        tile.dataset.points = t.points;
        tile.appendChild(el("span", "letter", t.letter));
        const base = t.points - (t.bonus || 0);  // the column's points; the bonus is shown beside them, added once
        tile.appendChild(el("span", "points", base + (base === 1 ? " pt" : " pts")));
        if (t.bonus) tile.appendChild(el("span", "bonus", "◆ +" + t.bonus));
        tiles.appendChild(tile);
      }
      col.appendChild(tiles);
      into.appendChild(col);
    }
    $("board-key").hidden = !b.columns.some((c) => c.tiles.some((t) => t.bonus));
  }

  function players(list) {
    const into = $("players");
    clear(into);
    for (const p of list) {
      const card = el("article", "player" + (p.turn ? " has-turn" : "") + (p.winner ? " winner" : ""));
      card.dataset.name = p.name;
      card.dataset.total = p.total;
      const head = el("h3", "name");
      head.appendChild(el("span", null, p.name));
      if (p.turn) head.appendChild(el("span", "badge turn-badge", "▶ turn"));
      if (p.winner) head.appendChild(el("span", "badge winner-badge", "★ winner"));
      card.appendChild(head);
      const total = el("p", "total");
      total.appendChild(el("span", "number", p.total));
      total.appendChild(el("span", "unit", " " + (p.total === 1 ? p.unit.replace(/s$/, "") : p.unit)));
      card.appendChild(total);
      if (p.facts.length) {
        const dl = el("dl", "facts small");
        facts(p.facts, dl);
        card.appendChild(dl);
      }
      const words = el("ul", "words");
      words.setAttribute("aria-label", p.name + "'s words");
      for (const w of p.words) {
        const li = el("li", w.counts ? "word" : "word not-counted");
        li.dataset.word = w.word;
        li.appendChild(el("span", "text", w.word));
        if (w.score !== null && w.score !== undefined) li.appendChild(el("span", "score", w.score));
        if (w.note) li.appendChild(el("span", "note", "(" + w.note + ")"));
        words.appendChild(li);
      }
      card.appendChild(words);
      into.appendChild(card);
    }
  }

  function showTimer() {
    const node = $("timer");
    const left = timer ? Math.ceil(timer.left - (performance.now() - timer.at) / 1000) : 0;
    if (left <= 0) {  // run out (or none): nothing stale is shown
      if (timer) { timer = null; fit(); }
      node.hidden = true;
      return;
    }
    node.hidden = false;
    node.textContent = timer.label + ": " + left + (left === 1 ? " second" : " seconds") +
      (timer.holder ? " · " + timer.holder : "");
  }

  function said(lines) {
    const fresh = lines.filter((s) => s.n > lastSaid);
    if (fresh.length) {  // every sentence since the last update, read out by a screen reader
      $("announce").textContent = fresh.map((s) => s.line).join(" ");
      lastSaid = fresh[fresh.length - 1].n;
    }
    $("said").textContent = lines.length ? lines[lines.length - 1].line : "";
    const earlier = $("earlier");
    clear(earlier);
    for (const s of lines.slice(0, -1).reverse()) earlier.appendChild(el("li", null, s.line));
  }

  function join(phones) {  // with --phones: where to join, until every player has (beside the game, over the scores)
    const section = $("join-section");
    section.hidden = !phones || !phones.waiting.length;
    document.querySelector("main").classList.toggle("joining", !section.hidden);
    if (section.hidden) return;
    if (!$("join-qr").getAttribute("src")) $("join-qr").setAttribute("src", "/join-qr.svg");
    $("join-url").textContent = phones.url;
    $("join-waiting").textContent = "Waiting for " + phones.waiting.join(", ").replace(/, ([^,]*)$/, " and $1") + ".";
  }

  function draw(message) {
    const v = message.view;
    if (!v) return;
    document.documentElement.dataset.version = message.version;
    document.title = v.title + " · scoreboard";
    $("title").textContent = v.title;
    $("status").textContent = v.status;
    const turn = $("turn");
    turn.textContent = v.finished ? "Game over" + (v.winners.length ? ": " + v.winners.join(" and ") + " won" : "")
      : v.turn ? "▶ " + v.turn + "'s turn" : "";
    turn.dataset.turn = v.turn || "";
    // the seconds left when this message was sent: its deadline less the server's time then
    const left = !v.timer ? null : (typeof v.timer.deadline === "number" && typeof message.now === "number")
      ? v.timer.deadline - message.now : v.timer.left;
    timer = v.timer && left > 0 ? Object.assign({}, v.timer, {left: left, at: performance.now()}) : null;
    $("timer").dataset.left = timer ? left.toFixed(1) : "";
    showTimer();
    board(v.board);
    $("facts-section").hidden = !v.facts.length;
    facts(v.facts, $("facts"));
    players(v.players);
    said(message.said || []);
    join(message.join);
    fit();
  }

  // ---------------------------------------------------------------- one screen
  // The whole view fits the window, never scrolled: when it would not, the sentences said
  // before go first (oldest first), then each player's words shorten to their latest 3,
  // then the print shrinks a little (to 85%), then the lists shorten to the latest word,
  // then the print shrinks on (to half, at most, and never under 14 px).
  const SMALLEST = 14;
  function overflows() {
    const page = document.documentElement;
    return page.scrollHeight > window.innerHeight || page.scrollWidth > window.innerWidth;
  }

  function keepWords(most) {  // each player's latest `most` words (the list is newest first); "+ N earlier" after
    for (const list of document.querySelectorAll("#players .words")) {
      const words = [...list.querySelectorAll(".word")];
      let more = list.querySelector(".more");
      const hidden = Math.max(0, words.length - most);
      words.forEach((w, i) => { w.hidden = i >= most; });
      if (!hidden) { if (more) more.remove(); continue; }
      if (!more) { more = el("li", "more"); list.appendChild(more); }
      more.textContent = "+ " + hidden + (hidden === 1 ? " earlier word" : " earlier words");
    }
  }

  function keepEarlier(most) {
    const items = [...document.querySelectorAll("#earlier li")];
    items.forEach((item, i) => { item.hidden = i >= most; });  // newest first
    document.querySelector(".area-earlier").hidden = most === 0 || !items.length;
  }

  // A name or word too long for its box is never split silently: it shrinks (to 60% of
  // its size), and only then breaks, at soft hyphens, each break shown with a hyphen.
  const LONG = ".name > span:first-child, .word .text, .fact dd, #join-url";

  function tooWide(node) {
    return node.scrollWidth > node.clientWidth + 1;
  }

  function hyphenate(word) {  // a soft hyphen between every two letters of a long word
    return word.length < 6 ? word : word.slice(0, 2) + word.slice(2, -2).replace(/(.)/g, "$1\u00ad") + word.slice(-2);
  }

  function fitText() {
    for (const node of document.querySelectorAll(LONG)) {
      if (!node.offsetParent) continue;
      node.style.fontSize = "";
      if (node.dataset.whole !== undefined) { node.textContent = node.dataset.whole; delete node.dataset.whole; }
      for (let s = 0.95; s > 0.59 && tooWide(node); s -= 0.05) node.style.fontSize = s.toFixed(2) + "em";
      if (!tooWide(node)) continue;
      node.dataset.whole = node.textContent;
      node.textContent = node.textContent.split(/(\s+)/).map(hyphenate).join("");
    }
  }

  function fit() {
    const root = document.documentElement;
    root.style.fontSize = "";
    const most = Math.max(0, ...[...document.querySelectorAll("#players .words")].map(
      (l) => l.querySelectorAll(".word").length));
    const earlier = document.querySelectorAll("#earlier li").length;
    keepWords(most);
    keepEarlier(earlier);
    for (let n = earlier - 1; n >= 0 && overflows(); n--) keepEarlier(n);
    for (let n = most - 1; n >= 3 && overflows(); n--) keepWords(n);
    fitText();
    const base = parseFloat(getComputedStyle(root).fontSize);
    const least = Math.min(1, SMALLEST / base);  // the print never goes under 14 px (docs/DISPLAY.md)
    let scale = 1;
    for (; scale > Math.max(0.86, least) && overflows(); scale -= 0.05) {
      root.style.fontSize = (base * Math.max(scale - 0.05, least)) + "px";
    }
    for (let n = Math.min(most, 3) - 1; n >= 1 && overflows(); n--) keepWords(n);
    for (; scale > Math.max(0.5, least) && overflows(); scale -= 0.05) {
      root.style.fontSize = (base * Math.max(scale - 0.05, least)) + "px";
    }
    fitText();
    root.dataset.fitted = window.innerWidth + "x" + window.innerHeight + ":" + root.dataset.version;
  }

  function theme(name) {
    document.documentElement.dataset.theme = name;
    const button = $("theme");
    const light = name === "light";
    button.textContent = light ? "Dark theme" : "Light theme";
    button.setAttribute("aria-pressed", String(light));
  }

  function start() {
    const params = new URLSearchParams(location.search);
    let chosen = params.get("theme");
    try { chosen = chosen || localStorage.getItem("voice-host-theme"); } catch (e) { /* private window */ }
    theme(chosen === "light" ? "light" : "dark");
    $("theme").addEventListener("click", () => {
      const next = document.documentElement.dataset.theme === "light" ? "dark" : "light";
      theme(next);
      try { localStorage.setItem("voice-host-theme", next); } catch (e) { /* not kept */ }
    });
    try {
      const first = JSON.parse($("state").textContent);
      const before = first.said || [];
      lastSaid = before.length ? before[before.length - 1].n : 0;  // said before the page opened: shown, not read out
      draw(first);
    } catch (e) { /* the stream brings the state */ }
    setInterval(showTimer, 250);
    window.addEventListener("resize", fit);
    if (!window.EventSource) return;
    const source = new EventSource("/events");
    source.onopen = () => { $("connection").textContent = "● Live"; };
    source.onerror = () => { $("connection").textContent = "○ Reconnecting… (showing the last state)"; };
    source.onmessage = (event) => {
      try { draw(JSON.parse(event.data)); } catch (e) { /* a broken message: the next one redraws */ }
    };
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
