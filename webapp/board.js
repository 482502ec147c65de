// The board page: one game seen by one viewer, following it live.
//
// Entry: startBoard({ token, apiBase, replay }) — token: a session token issued by the server
// (web/sessions.py); apiBase: the address the page's API is under (default: this page's folder;
// inside a Discord Activity, the mapped prefix). The Discord bootstrap calls it once it has a
// token. Outside Discord (no `frame_id` in the address) the page starts by itself with the token
// of its address's fragment (#token=...; the offline table's local login puts it there) or the
// one this tab already had. The token is sent in an Authorization header, never in a cookie.

const BOARD_W = 1680, BOARD_H = 1260; // render.board
const MILL_W = 1000, MILL_H = 800; // render.mill
const RETRY = [500, 1000, 2000, 4000]; // ms before reconnecting the live updates

const $ = (id) => document.getElementById(id);

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props);
  for (const c of children) node.append(c);
  return node;
}

class Board {
  constructor(token, apiBase, replay) {
    this.token = token;
    this.base = new URL(apiBase || ".", location.href);
    if (!this.base.pathname.endsWith("/")) this.base.pathname += "/";
    this.replay = replay;
    this.seq = null; // the seq the page shows
    this.view = null;
    this.millSeat = null; // whose Mill is shown
    this.loading = null;
    this.again = false;
    this.busy = false;
    this.urls = {}; // picture -> its blob URL
    this.shown = {}; // picture -> the digest of what it shows (the view's "pictures")
    this.pushed = null; // a view the live updates brought, not shown yet
    this.live = false; // the live updates are connected
  }

  url(path) {
    return new URL(path, this.base);
  }

  async api(path, options = {}) {
    const res = await fetch(this.url(path), {
      ...options,
      headers: { ...(options.headers || {}), Authorization: `Bearer ${this.token}` },
      cache: "no-store",
    });
    if (res.status === 401) {
      this.signedOut = true;
      const data = await res.json().catch(() => ({}));
      this.say(data.error || "401", true);
      throw new Error("signed out");
    }
    return res;
  }

  say(text, bad = false) {
    $("status").textContent = text || "";
    $("status").className = bad ? "bad" : "";
  }

  words(key, fields = {}) {
    let text = (this.view && this.view.words[key]) || key;
    for (const [k, v] of Object.entries(fields)) text = text.replaceAll(`{${k}}`, v);
    return text;
  }

  async picture(which, path, key) {
    const res = await this.api(path);
    if (!res.ok) return;
    this.shown[which] = key;
    const blob = await res.blob();
    const img = $(which).querySelector("img");
    const old = this.urls[which];
    this.urls[which] = URL.createObjectURL(blob);
    await new Promise((done) => {
      img.onload = img.onerror = done;
      img.src = this.urls[which];
    });
    if (old) URL.revokeObjectURL(old);
  }

  // Read the view again (coalescing: a change during a load loads once more after it).
  async refresh() {
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = (async () => {
      do {
        this.again = false;
        try {
          await (this.replay ? this.loadReplay() : this.load());
        } catch (err) {
          if (this.signedOut) return;
          console.error(err);
        }
      } while (this.again);
    })();
    try {
      await this.loading;
    } finally {
      this.loading = null;
    }
  }

  async load() {
    document.body.dataset.ready = "0";
    let view = this.pushed;
    this.pushed = null;
    if (!view) {
      const res = await this.api("api/view");
      view = await res.json();
      if (!res.ok) return this.say(view.error, true);
    }
    this.view = view;
    document.documentElement.lang = view.lang;
    document.title = view.words.title;
    $("title").textContent = view.words.title;
    if (this.millSeat === null) this.millSeat = view.seat ?? 0;
    const moved = view.seq !== this.seq;
    this.seq = view.seq;
    this.drawTurn();
    this.drawSide();
    // a picture is loaded again only when what it shows changed (its digest; without one, at
    // every move)
    const keys = view.pictures || {};
    const stale = (which, key) =>
      !this.urls[which] || (key === undefined ? moved : key !== this.shown[which]);
    const millKey = (keys.mills || [])[this.millSeat];
    await Promise.all([
      stale("board", keys.board) && this.picture("board", "api/board.png", keys.board),
      stale("mill", millKey) && this.picture("mill", this.millPath(this.millSeat), millKey),
    ]);
    this.drawSpots();
    document.body.dataset.seq = String(view.seq);
    document.body.dataset.ready = "1";
  }

  drawTurn() {
    const v = this.view;
    const box = $("turn");
    box.replaceChildren();
    const d = v.decision;
    box.className = d && d.mine ? "mine" : "";
    if (v.notice) {
      box.append(el("p", { className: "who", textContent: v.notice }));
      return;
    }
    if (!d || d.over) {
      box.append(el("p", { className: "who", textContent: (d && d.result) || this.words("over") }));
      const scores = el("ol", { className: "scores" });
      for (const s of (d && d.scores) || []) scores.append(el("li", { textContent: `${s.name}: ${s.prestige} ${this.words("prestige")}` }));
      if (scores.children.length) box.append(scores);
      return;
    }
    if (!d.mine) {
      const who = this.words("waiting", { name: d.name });
      box.append(el("p", { className: "who", textContent: who }));
      if (v.seat === null) box.append(el("p", { className: "quiet", textContent: this.words("spectating") }));
      return;
    }
    box.append(el("p", { className: "who", textContent: this.words("your_turn") }));
    box.append(el("p", { className: "prompt", textContent: d.prompt }));
    const button = (i) =>
      el("button", {
        className: "choice",
        textContent: d.choices[i].label,
        onclick: () => this.play(d.choices[i].id),
      });
    const make = (i) => {
      const b = button(i);
      b.dataset.choice = d.choices[i].id;
      return b;
    };
    const direct = el("div", { className: "choices" });
    for (const i of d.direct) direct.append(make(i));
    box.append(direct);
    d.groups.forEach((title, g) => {
      const group = el("details", { className: "group", open: d.groups.length <= 3 });
      group.append(el("summary", { textContent: title }));
      const list = el("div", { className: "choices" });
      d.choices.forEach((c, i) => c.group === g && list.append(make(i)));
      group.append(list);
      box.append(group);
    });
    if (d.undo) {
      box.append(el("button", { className: "quiet undo", textContent: this.words("undo"), onclick: () => this.undo() }));
    }
  }

  drawSpots() {
    for (const which of ["board", "mill"]) $(which).querySelector(".spots").replaceChildren();
    const d = this.view && this.view.decision;
    if (!d || !d.mine) return;
    const byPlace = new Map();
    for (const c of d.choices) {
      if (!c.spot) continue;
      if (c.spot.picture === "mill" && this.millSeat !== this.view.seat) continue;
      const key = `${c.spot.picture}|${c.spot.key}`;
      if (!byPlace.has(key)) byPlace.set(key, []);
      byPlace.get(key).push(c);
    }
    for (const [key, list] of byPlace) {
      const [picture] = key.split("|");
      const [w, h] = picture === "board" ? [BOARD_W, BOARD_H] : [MILL_W, MILL_H];
      const [x0, y0, x1, y1] = list[0].spot.box;
      const spot = el("button", {
        className: "spot",
        title: list.map((c) => c.label).join("\n"),
        onclick: () => (list.length === 1 ? this.play(list[0].id) : this.menu(list)),
      });
      spot.dataset.spot = list[0].spot.key;
      spot.dataset.choices = list.map((c) => c.id).join(" ");
      spot.setAttribute("aria-label", spot.title);
      Object.assign(spot.style, {
        left: `${(100 * x0) / w}%`,
        top: `${(100 * y0) / h}%`,
        width: `${(100 * (x1 - x0)) / w}%`,
        height: `${(100 * (y1 - y0)) / h}%`,
      });
      $(picture).querySelector(".spots").append(spot);
    }
  }

  menu(list) {
    const box = $("menubox");
    box.replaceChildren(el("p", { className: "who", textContent: this.words("choose_here") }));
    for (const c of list) {
      const b = el("button", { className: "choice", textContent: c.label, onclick: () => this.closeMenu() || this.play(c.id) });
      b.dataset.choice = c.id;
      box.append(b);
    }
    box.append(el("button", { className: "quiet", textContent: this.words("cancel"), onclick: () => this.closeMenu() }));
    $("menu").hidden = false;
  }

  closeMenu() {
    $("menu").hidden = true;
  }

  drawSide() {
    const v = this.view;
    $("zoom").textContent = this.words("zoom");
    $("millstitle").textContent = this.words("mills");
    const tabs = $("milltabs");
    tabs.replaceChildren();
    for (const p of v.players || []) {
      const tab = el("button", {
        className: `tab ${p.colour}` + (p.seat === this.millSeat ? " on" : ""),
        textContent: p.name,
        onclick: () => this.showMill(p.seat),
      });
      tabs.append(tab);
    }
    const hand = $("hand");
    hand.replaceChildren();
    hand.hidden = !(v.seat !== null && v.hand);
    if (!hand.hidden) {
      hand.append(el("h2", { textContent: `${this.words("hand")} (${v.hand.length})` }));
      for (const c of v.hand) hand.append(el("p", { className: "card" }, el("b", { textContent: c.name }), ` ${c.text}`));
    }
    const players = $("players");
    players.replaceChildren(el("h2", { textContent: this.words("players") }));
    for (const p of v.players || []) {
      const row = el("div", { className: `player ${p.colour}` });
      const name = p.you ? `${p.name} (${this.words("you")})` : p.name;
      row.append(el("b", { textContent: name }));
      const facts = ["money", "innovation", "coal", "brass", "books", "steam", "cards"]
        .map((k) => `${this.words(k)} ${p[k]}`)
        .join(" · ");
      row.append(el("span", { textContent: facts }));
      players.append(row);
    }
    const log = $("log");
    log.replaceChildren(el("h2", { textContent: this.words("log") }));
    const list = el("ul");
    for (const line of (v.log || []).slice().reverse()) list.append(el("li", { textContent: line }));
    log.append(list);
  }

  // A player's Mill: now, or in the replay after the slider's number of moves (the public view).
  millPath(seat) {
    return this.replay ? `api/replay/${$("slider").value}/mill/${seat}.png` : `api/mill/${seat}.png`;
  }

  async showMill(seat) {
    this.millSeat = seat;
    this.drawSide();
    const keys = (this.view && this.view.pictures) || {};
    await this.picture("mill", this.millPath(seat), (keys.mills || [])[seat]);
    this.drawSpots();
  }

  async send(path, body) {
    if (this.busy) return;
    this.busy = true;
    this.say(this.words("sending"));
    try {
      const res = await this.api(path, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      const data = await res.json();
      this.say(res.ok ? data.label : data.error, !res.ok);
      if (res.ok && this.live) return; // the live updates bring the new view
    } finally {
      this.busy = false;
    }
    await this.refresh();
  }

  play(choice) {
    return this.send("api/move", { seq: this.seq, choice });
  }

  undo() {
    return this.send("api/undo", { seq: this.seq });
  }

  // Live updates: server-sent events read from a fetch (so the token stays in a header).
  // "hello" on every (re)connection resynchronises; "changed" after every move. Each carries
  // the viewer's view (without one: read it).
  async follow() {
    let attempt = 0;
    while (!this.signedOut) {
      try {
        const res = await this.api("api/events");
        if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
        attempt = 0;
        this.live = true;
        document.body.dataset.live = "1";
        if ($("status").textContent === this.words("reconnecting")) this.say("");
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let cut;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const data = block.split("\n").find((l) => l.startsWith("data:"));
            if (!data) continue; // a keep-alive line
            const view = JSON.parse(data.slice(5));
            if (this.replay) {
              if (view) this.grow(view.seq);
              continue;
            }
            this.pushed = view;
            this.refresh();
          }
        }
      } catch (err) {
        if (this.signedOut) return;
      }
      this.live = false;
      document.body.dataset.live = "0";
      this.say(this.words("reconnecting"), true);
      await new Promise((r) => setTimeout(r, RETRY[Math.min(attempt++, RETRY.length - 1)]));
    }
  }

  // The replay: the public view after any number of the game's moves.
  async startReplay() {
    const res = await this.api("api/replay");
    const info = await res.json();
    this.view = { words: info.words, seat: null };
    $("replay").hidden = false;
    $("title").textContent = `${info.words.replay} · #${info.game}`;
    const slider = $("slider");
    slider.max = String(info.moves);
    slider.value = String(info.moves);
    this.total = info.moves;
    slider.oninput = () => this.refresh();
    await this.refresh();
    this.follow(); // the game may go on meanwhile: the slider grows with it
  }

  // The game moved while its replay is open: the slider covers the new moves; left at the end,
  // it stays there and shows them.
  grow(moves) {
    const slider = $("slider");
    const atEnd = Number(slider.value) === this.total;
    this.total = moves;
    slider.max = String(moves); // (an undo shortens the game: the slider's value follows)
    if (atEnd) slider.value = String(moves);
    if (atEnd || Number(slider.value) !== this.shownMove) this.refresh();
    else $("moveof").textContent = this.words("move_n", { n: slider.value, total: moves });
  }

  async loadReplay() {
    document.body.dataset.ready = "0";
    const n = Number($("slider").value);
    const res = await this.api(`api/replay/${n}`);
    const view = await res.json();
    if (!res.ok) return this.say(view.error, true);
    this.view = { ...view, words: this.view.words, seat: null };
    this.millSeat ??= 0;
    $("moveof").textContent = this.words("move_n", { n, total: this.total });
    this.drawTurn();
    this.drawSide();
    await Promise.all([
      this.picture("board", `api/replay/${n}/board.png`),
      this.picture("mill", this.millPath(this.millSeat)),
    ]);
    this.shownMove = n;
    document.body.dataset.seq = String(n);
    document.body.dataset.moves = String(this.total);
    document.body.dataset.ready = "1";
  }
}

// A phone shows the whole board small: "Zoom" shows it larger, scrolled to the first hotspot.
function zoom() {
  const pane = $("boardpane");
  pane.classList.toggle("zoomed");
  const spot = pane.querySelector("button.spot");
  if (pane.classList.contains("zoomed") && spot) spot.scrollIntoView({ block: "center", inline: "center" });
}

export async function startBoard({ token, apiBase, replay = false }) {
  const board = new Board(token, apiBase, replay);
  window.adaBoard = board;
  $("zoom").onclick = zoom;
  $("menu").onclick = (e) => e.target === $("menu") && board.closeMenu();
  if (replay) return board.startReplay();
  await board.refresh();
  board.follow();
  return board;
}
window.startBoard = startBoard;

function autostart() {
  const query = new URLSearchParams(location.search);
  if (query.has("frame_id")) {
    // inside Discord: the Activity's sign-in (webapp/discord.js, bundled) starts the board
    // (without it, the server has said in the page that the client was never built)
    if (window.AdaDiscord) window.AdaDiscord.openInDiscord({ apiBase: "", startBoard });
    return;
  }
  const fragment = new URLSearchParams(location.hash.slice(1));
  const token = fragment.get("token") || sessionStorage.getItem("ada-token");
  const replay = fragment.has("token")
    ? fragment.get("replay") === "1" // a new sign-in says which view it is for
    : sessionStorage.getItem("ada-replay") === "1"; // a reload keeps the tab's view
  if (!token) {
    location.replace(new URL("local", location.href)); // the offline table's seat picker
    return;
  }
  sessionStorage.setItem("ada-token", token);
  sessionStorage.setItem("ada-replay", replay ? "1" : "0");
  history.replaceState(null, "", location.pathname + location.search); // the token leaves the address bar
  startBoard({ token, replay });
}

autostart();
