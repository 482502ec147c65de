// The offline table's local login: pick a seat of a game (or watch it), then open the board.
const base = new URL(".", location.href);

async function post(path, body) {
  const res = await fetch(new URL(path, base), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

async function open(game, seat, replay) {
  const { token } = await post("api/local/login", { game, seat });
  const url = new URL("./", base);
  url.hash = new URLSearchParams(replay ? { token, replay: "1" } : { token }).toString();
  location.href = url.href;
}

function button(text, onclick, cls = "") {
  const b = document.createElement("button");
  b.textContent = text;
  b.className = cls;
  b.onclick = onclick;
  return b;
}

async function main() {
  const res = await fetch(new URL("api/local/games", base));
  const { games, words } = await res.json();
  const root = document.getElementById("games");
  root.before(Object.assign(document.createElement("p"), { textContent: words.pick_seat }));
  for (const g of games) {
    const box = document.createElement("section");
    box.className = "card";
    const h = document.createElement("h2");
    h.textContent = `#${g.game}`;
    box.append(h);
    for (const s of g.seats) {
      if (!s.ai) box.append(button(s.name, () => open(g.game, s.seat, false), "seat"));
    }
    box.append(button(words.watch, () => open(g.game, null, false), "quiet"));
    box.append(button(words.replay, () => open(g.game, null, true), "quiet"));
    root.append(box);
  }
}

main();
