/* rink serve: the phone page. Plain JavaScript, no build step, no library.
 *
 * Every text that came from a photo, a file or a player is put in the page with
 * textContent or setAttribute (the el() and svg() helpers), never as HTML.
 */
"use strict";

const TOKEN = new URLSearchParams(location.search).get("t");
const SVGNS = "http://www.w3.org/2000/svg";
const SIDE_WORDS = ["north", "east", "south", "west"];
// network colours: none close to the route traces' amber and teal, nor to the Errors' red
const NET_COLOURS = ["#d62f7f", "#1f6fff", "#2a9d3f", "#8a4dff", "#a0522d", "#0a3d91",
  "#e05aa8", "#5d6b00", "#6b2fb3", "#3b7d3b", "#b0006a", "#4a7fbf"];
const LOOSE = "#48525c";        // pieces that reach no scoring network
const HIGHWAY_BAND = "#ffb300";  // Longest Highway trace
const RAILWAY_BAND = "#00b3b3";  // Longest Railway trace
const state = { config: null, night: null, board: null, fresh: null, glyphs: {},
  photoOnly: false, poll: null };

/* ---------- small helpers ---------- */
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "on") { for (const [ev, fn] of Object.entries(value)) node.addEventListener(ev, fn); }
    else if (key === "text") node.textContent = value;
    else if (key === "value") node.value = value;
    else if (key === "checked") node.checked = !!value;
    else if (key === "style") node.style.cssText = value;  // CSSOM: allowed by the page's CSP
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}
function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined) continue;
    if (key === "text") node.textContent = value; else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) if (child) node.append(child);
  return node;
}
function withToken(url) {
  if (!TOKEN) return url;
  return url + (url.includes("?") ? "&" : "?") + "t=" + encodeURIComponent(TOKEN);
}
async function api(path, body) {
  const options = { credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    options.method = "POST";
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(withToken(path), options);
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    throw new Error((data && data.error) || `The server answered ${response.status}.`);
  }
  return data;
}
function toast(text) {
  const box = document.getElementById("toast");
  box.textContent = text;
  box.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => box.classList.remove("show"), 3200);
}
function place(row, col) { return `Row ${row}, column ${col}`; }
function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }
function capital(text) { return text ? text[0].toUpperCase() + text.slice(1) : text; }
function main() { return document.getElementById("main"); }
function show(...nodes) { main().replaceChildren(...nodes.filter(Boolean)); window.scrollTo(0, 0); }

/* ---------- drawing one space ---------- */
const MID = [[0.5, 0], [1, 0.5], [0.5, 1], [0, 0.5]];

/* A river's wavy line along path(t), t from 0 to 1, with `waves` whole waves (level at both
   ends, so rivers of neighbouring spaces meet). */
function wavyPath(path, c, waves) {
  const n = 24, amp = c * 0.05;
  let d = "";
  for (let i = 0; i <= n; i++) {
    const t = i / n;
    const [px, py] = path(t);
    const [ax, ay] = path(Math.max(0, t - 0.01)), [bx, by] = path(Math.min(1, t + 0.01));
    const tx = bx - ax, ty = by - ay, len = Math.hypot(tx, ty) || 1;
    const w = amp * Math.sin(2 * Math.PI * waves * t);
    d += `${i ? " L" : "M"}${(px - (ty / len) * w).toFixed(1)},${(py + (tx / len) * w).toFixed(1)}`;
  }
  return d;
}
const hasRoute = (code) => code.includes("H") || code.includes("R");

/* Draw a space's pieces into group g: cell of size c at (x, y). colourOf(netIndex) gives a
   piece's colour. space: {pieces: [{code, net}], markers, overpass}. Water is drawn first:
   lakes as pale wedges against their sides, rivers as wavy blue lines, broken under a
   bridge (a route of another piece in the same space, drawn over it). */
function drawSpace(g, x, y, c, space, colourOf) {
  const cx = x + c / 2, cy = y + c / 2;
  const at = (side, f) => [cx + (MID[side][0] - 0.5) * c * f * 2, cy + (MID[side][1] - 0.5) * c * f * 2];
  const all = space.pieces || [];
  const routed = all.filter((p) => hasRoute(p.code));
  const pieces = [...all.filter((p) => !hasRoute(p.code)), ...routed];
  for (const piece of pieces) {
    const colour = colourOf(piece.net);
    const code = piece.code;
    const bridge = !hasRoute(code) && routed.length > 0;  // a river under another piece's route
    const ends = [];
    for (let s = 0; s < 4; s++) if (code[s] !== "_") ends.push(s);
    // lake sides: pale water wedges
    for (const s of ends) {
      if (code[s] !== "L") continue;
      const a = [[x, y], [x + c, y], [x + c, y + c], [x, y + c]];
      const p1 = a[s], p2 = a[(s + 1) % 4];
      g.append(svg("polygon", { points: `${p1} ${p2} ${cx},${cy}`, fill: "#6fb7e9",
        "fill-opacity": 0.75, class: "lake" }));
    }
    const routes = ends.filter((s) => code[s] !== "L");
    const under = space.overpass && code.includes("R");  // the railway passes under
    const curve = routes.length === 2 && (routes[1] - routes[0]) % 2 === 1 &&
      code[routes[0]] === code[routes[1]] && !routes.some((s) => code[s] === "L") &&
      ends.length === 2;
    if (curve) {
      const [a, b] = routes.map((s) => at(s, 0.5));
      const quad = (t) => [0, 1].map((i) => (1 - t) * (1 - t) * a[i] + 2 * t * (1 - t) * [cx, cy][i] + t * t * b[i]);
      const d = code[routes[0]] === "W" ? wavyPath(quad, c, 2) : `M${a} Q${cx},${cy} ${b}`;
      strokeKind(g, code[routes[0]], d, c, colour, [a, b]);
    } else {
      for (const s of routes) {
        const start = under ? at(s, 0.2) : bridge ? at(s, 0.24) : [cx, cy];
        const end = at(s, 0.5);
        const leg = (t) => [0, 1].map((i) => start[i] + (end[i] - start[i]) * t);
        const d = code[s] === "W" ? wavyPath(leg, c, bridge ? 0.5 : 1) : `M${start} L${end}`;
        strokeKind(g, code[s], d, c, colour, [start, end]);
      }
    }
    const kinds = new Set(routes.map((s) => code[s]));
    if (kinds.has("H") && kinds.has("R")) {
      const h = c * 0.11;
      g.append(svg("rect", { x: cx - h, y: cy - h, width: 2 * h, height: 2 * h, fill: "#1d2733",
        stroke: "#fff", "stroke-width": c * 0.02 }));
    }
  }
  if (space.markers) {
    g.append(svg("circle", { cx: x + c * 0.78, cy: y + c * 0.22, r: c * 0.17, fill: "#fff",
      stroke: "#1d2733", "stroke-width": c * 0.025 }));
    g.append(svg("text", { x: x + c * 0.78, y: y + c * 0.28, "text-anchor": "middle",
      "font-size": c * (space.markers.length > 1 ? 0.16 : 0.22), "font-weight": 700,
      fill: "#1d2733", text: space.markers }));
  }
}

function strokeKind(g, kind, d, c, colour, line) {
  if (kind === "H") {
    g.append(svg("path", { d, fill: "none", stroke: colour, "stroke-width": c * 0.17,
      "stroke-linecap": "round" }));
    g.append(svg("path", { d, fill: "none", stroke: "#fff", "stroke-width": c * 0.025,
      "stroke-dasharray": `${c * 0.07} ${c * 0.07}`, "stroke-opacity": 0.9 }));
  } else if (kind === "R") {
    g.append(svg("path", { d, fill: "none", stroke: colour, "stroke-width": c * 0.055,
      "stroke-linecap": "round" }));
    g.append(svg("path", { d, fill: "none", stroke: colour, "stroke-width": c * 0.16,
      "stroke-dasharray": `${c * 0.035} ${c * 0.1}` }));
  } else if (kind === "W") {
    g.append(svg("path", { d, fill: "none", stroke: "#1c74c9", "stroke-width": c * 0.1,
      "stroke-linecap": "round", "stroke-linejoin": "round", class: "river" }));
    g.append(svg("path", { d, fill: "none", stroke: "#bfe3ff", "stroke-width": c * 0.025,
      "stroke-linecap": "round" }));
  }
}

/* A small picture of one token for buttons. shape: {token, pieces: [codes], markers, overpass} */
function glyphSvg(shape) {
  const s = svg("svg", { viewBox: "0 0 48 48", "aria-hidden": "true" });
  s.append(svg("rect", { x: 1, y: 1, width: 46, height: 46, rx: 6, fill: "#f6f0dc",
    stroke: "#c9bfa0" }));
  drawSpace(s, 0, 0, 48, { pieces: (shape.pieces || []).map((code) => ({ code, net: null })),
    markers: shape.markers, overpass: shape.overpass }, () => "#2c3e50");
  return s;
}
function shapeOf(token) {
  // For tokens shown before the catalogue is loaded: look them up, else a plain label.
  for (const groups of Object.values(state.glyphs)) {
    for (const group of groups.groups) {
      for (const glyph of group.glyphs) if (glyph.token === token) return glyph;
    }
  }
  return null;
}
function glyphButton(token, caption, extraClass, onPick) {
  const shape = shapeOf(token);
  return el("button", { type: "button", class: `glyph-btn ${extraClass || ""}`,
      "data-token": token, title: token, "aria-label": `${token} ${caption || ""}`,
      on: { click: () => onPick(token) } },
    shape ? glyphSvg(shape) : el("span", { class: "cap", text: token }),
    el("span", { class: "cap", text: caption || token }));
}

/* ---------- pages ---------- */
async function route() {
  clearInterval(state.poll);
  closeModal();
  const hash = location.hash || "#/";
  document.getElementById("nav-new").classList.toggle("on", hash === "#/");
  document.getElementById("nav-night").classList.toggle("on", hash.startsWith("#/night"));
  const match = hash.match(/^#\/board\/(b\d{4,6})$/);
  try {
    if (!state.config) state.config = await api("/api/config");
    if (match) await showBoard(match[1]);
    else if (hash.startsWith("#/night")) await showNight();
    else await showHome();
  } catch (error) {
    show(el("section", { class: "card message" }, el("h2", { text: "Something went wrong" }),
      el("p", { text: error.message }),
      el("button", { class: "btn", type: "button", text: "Try again", on: { click: route } })));
  }
}

async function showHome(prefill) {
  const night = await api("/api/night");
  state.night = night;
  const player = el("input", { class: "text", id: "player", maxlength: 40,
    autocomplete: "nickname", placeholder: "e.g. Anna", value: prefill || state.retakeName || "" });
  state.retakeName = null;
  const bar = el("div", { class: "bar" });
  const progressText = el("p", { text: "" });
  const progress = el("div", { class: "progress", hidden: true },
    el("div", { class: "track" }, bar), progressText);
  const message = el("div", {});
  const onFile = (event) => {
    const file = event.target.files && event.target.files[0];
    event.target.value = "";
    if (file) upload(file, player.value, { bar, progress, progressText, message });
  };
  const camera = el("label", { class: "btn primary wide" }, cameraIcon(), "Take a photo",
    el("input", { type: "file", accept: "image/*", capture: "environment", class: "file-input",
      id: "camera-input", on: { change: onFile } }));
  const pick = el("label", { class: "btn wide" }, "Choose a photo",
    el("input", { type: "file", accept: "image/*,.heic,.heif", class: "file-input",
      id: "photo-input", on: { change: onFile } }));
  const recent = night.boards.slice(-6).reverse();
  show(
    el("section", { class: "card upload" },
      el("h1", { text: "Score a board" }),
      el("label", { class: "field", for: "player" }, "Player", player),
      el("div", { class: "buttons" }, camera, pick),
      progress, message,
      el("p", { class: "muted",
        text: "Photograph the whole board from above, in good light, with the Exit marks in view." })),
    recent.length ? el("section", { class: "card" }, el("h2", { text: "Tonight's boards" }),
      boardTable(night, recent.map((b) => b.id))) : null);
}

function cameraIcon() {
  return svg("svg", { viewBox: "0 0 24 24", fill: "none", stroke: "currentColor",
    "stroke-width": 2, "aria-hidden": "true" },
  svg("path", { d: "M4 8h3l2-3h6l2 3h3v11H4z" }), svg("circle", { cx: 12, cy: 13, r: 3.5 }));
}

function upload(file, player, ui) {
  ui.message.replaceChildren();
  if (file.size > state.config.max_upload) {
    ui.message.replaceChildren(el("div", { class: "card message", id: "upload-error" },
      el("h2", { text: "Photo too big" }), el("p", { text: state.config.too_large })));
    return;
  }
  const form = new FormData();
  form.append("player", player || "");
  form.append("photo", file, "photo");
  const xhr = new XMLHttpRequest();
  xhr.open("POST", withToken("/api/boards"));
  ui.progress.hidden = false;
  ui.progress.classList.remove("busy");
  ui.progressText.textContent = "Sending the photo… 0%";
  xhr.upload.onprogress = (e) => {
    if (!e.lengthComputable) return;
    const pct = Math.round((100 * e.loaded) / e.total);
    ui.bar.style.width = `${pct}%`;
    ui.progressText.textContent = `Sending the photo… ${pct}%`;
  };
  xhr.upload.onload = () => {
    ui.progress.classList.add("busy");
    ui.progressText.textContent = "Reading the board…";
  };
  const fail = (text) => {
    ui.progress.hidden = true;
    ui.message.replaceChildren(el("div", { class: "card message", id: "upload-error" },
      el("h2", { text: "Not uploaded" }), el("p", { text })));
  };
  xhr.onerror = () => fail("The connection to rink was lost. Check the Wi-Fi and try again.");
  xhr.onload = () => {
    let data = null;
    try { data = JSON.parse(xhr.responseText); } catch (e) { data = null; }
    if (xhr.status !== 200 || !data) {
      fail((data && data.error) || `The server answered ${xhr.status}.`);
      return;
    }
    state.fresh = data;
    location.hash = `#/board/${data.id}`;
  };
  xhr.send(form);
}

/* ---------- one board ---------- */
async function showBoard(id, view) {
  // the answer to an upload is shown as it came; any other visit asks again (another phone
  // may have fixed the board meanwhile)
  const fresh = state.fresh && state.fresh.id === id ? state.fresh : null;
  state.fresh = null;
  const board = view || fresh || await api(`/api/boards/${id}`);
  state.board = board;
  await loadGlyphs(board);
  if (board.status === "reading") {
    show(el("section", { class: "card" }, el("h1", { text: board.label }),
      el("div", { class: "progress busy" }, el("div", { class: "track" }, el("div", { class: "bar" })),
        el("p", { text: "Reading the board…" }))));
    state.poll = setInterval(async () => {
      const fresh = await api(`/api/boards/${id}`);
      if (fresh.status !== "reading") { clearInterval(state.poll); renderBoard(fresh); }
    }, 1000);
    return;
  }
  renderBoard(board);
}

async function loadGlyphs(board) {
  const names = ((board.expansions && board.expansions.effective) || []).join(",");
  if (!state.glyphs[names]) {
    state.glyphs[names] = await api(`/api/glyphs?expansions=${encodeURIComponent(names)}`);
  }
  return state.glyphs[names];
}
function glyphsFor(board) {
  return state.glyphs[((board.expansions && board.expansions.effective) || []).join(",")];
}

function renderBoard(board) {
  state.board = board;
  if (location.hash !== `#/board/${board.id}`) history.replaceState(null, "", `#/board/${board.id}`);
  const parts = [headline(board)];
  if (board.status === "failed") {
    parts.push(failureCard(board));
  } else {
    for (const warning of board.warnings || []) {
      parts.push(el("section", { class: "card message warn" }, el("h2", { text: "Check the reading" }),
        el("p", { text: capital(warning) + "." })));
    }
    if (board.score_error) {
      parts.push(el("section", { class: "card message", id: "score-error" },
        el("h2", { text: "Cannot score this board yet" }), el("p", { text: board.score_error })));
    }
    if ((board.review || []).length) parts.push(reviewCard(board));
    parts.push(boardFigure(board));
    if (board.explain) {
      parts.push(sheetCard(board));
      const problems = problemsCard(board);
      if (problems) parts.push(problems);
    }
    if ((board.corrections || []).length) parts.push(correctionsCard(board));
    parts.push(rulesCard(board));
  }
  parts.push(el("section", { class: "card" },
    el("div", { class: "row" },
      el("a", { class: "btn", href: "#/", text: "Score another board" }),
      el("a", { class: "btn", href: "#/night", text: "Leaderboard" }))));
  const scrollY = window.scrollY;
  main().replaceChildren(...parts);
  window.scrollTo(0, scrollY);
}

function headline(board) {
  const name = el("input", { class: "player", id: "board-player", value: board.player,
    placeholder: `Board ${board.number}: player's name`, maxlength: 40, "aria-label": "Player",
    on: { change: async (e) => {
      try { renderBoard(await api(`/api/boards/${board.id}/player`, { player: e.target.value })); toast("Name saved"); }
      catch (error) { toast(error.message); }
    } } });
  const total = board.explain ? board.explain.score.total : "–";
  const bits = [];
  if (board.explain) {
    const errors = board.explain.score.errors;
    bits.push(el("span", { class: errors ? "badge bad" : "badge", text: plural(errors, "Error") }));
    if ((board.review || []).length) {
      bits.push(" ", el("span", { class: "badge", text: `${board.review.length} to check` }));
    }
    if ((board.corrections || []).length) {
      bits.push(" ", el("span", { class: "badge fix", text: `${board.corrections.length} corrected` }));
    }
  }
  return el("section", { class: "card" },
    el("div", { class: "headline" }, name,
      el("div", { class: "total" }, el("span", { class: "num", id: "total", text: total }),
        el("span", { class: "unit", text: "points" }))),
    bits.length ? el("div", { class: "summary" }, ...bits) : null);
}

function failureCard(board) {
  const f = board.failure || {};
  const card = el("section", { class: "card message", id: "failure" },
    el("h2", { text: f.title || "The photo could not be read" }),
    el("p", { text: f.message || "" }),
    (f.tips || []).length ? el("ul", { class: "tips" }, f.tips.map((t) => el("li", { text: t }))) : null,
    el("div", { class: "row", style: "margin-top:10px" },
      el("a", { class: "btn primary", href: "#/", text: "Take another photo",
        on: { click: () => { state.retakeName = board.player; } } })));
  const parts = [card];
  if (f.corners && board.preview) parts.push(cornerPicker(board));
  return el("div", {}, parts);
}

function cornerPicker(board) {
  const names = ["top-left", "top-right", "bottom-right", "bottom-left"];
  const p = board.preview;
  const points = [];
  const marks = svg("svg", { viewBox: `0 0 ${p.width} ${p.height}` });
  const img = el("img", { src: withToken(p.url), alt: "Your photo", width: p.width, height: p.height });
  const wrap = el("div", { class: "corner-wrap" }, img, marks);
  const say = el("p", { class: "where", id: "corner-step" });
  const go = el("button", { class: "btn primary", type: "button", disabled: true, id: "read-corners",
    text: "Read with these corners" });
  const again = el("button", { class: "btn", type: "button", text: "Start again" });
  const draw = () => {
    marks.replaceChildren();
    const r = Math.max(p.width, p.height) / 60;
    if (points.length > 1) {
      marks.append(svg("polygon", { points: points.map((q) => q.join(",")).join(" "), fill: "#f4a62333",
        stroke: "#f4a623", "stroke-width": r / 3 }));
    }
    points.forEach((q, i) => {
      marks.append(svg("circle", { cx: q[0], cy: q[1], r, fill: "#f4a623", stroke: "#fff", "stroke-width": r / 4 }));
      marks.append(svg("text", { x: q[0], y: q[1] + r * 0.4, "text-anchor": "middle", "font-size": r * 1.2,
        "font-weight": 700, fill: "#1d2733", text: String(i + 1) }));
    });
    say.textContent = points.length < 4
      ? `Tap the grid's ${names[points.length]} corner (${points.length + 1} of 4). The top is the side with the Special Routes.`
      : "All four corners tapped.";
    go.disabled = points.length < 4;
  };
  wrap.addEventListener("click", (e) => {
    if (points.length >= 4) return;
    const box = img.getBoundingClientRect();
    points.push([((e.clientX - box.left) / box.width) * p.width, ((e.clientY - box.top) / box.height) * p.height]);
    draw();
  });
  again.addEventListener("click", () => { points.length = 0; draw(); });
  go.addEventListener("click", async () => {
    go.disabled = true;
    say.textContent = "Reading the board…";
    try {
      const corners = points.map((q) => [q[0] / p.per_photo_px, q[1] / p.per_photo_px]);
      renderBoard(await api(`/api/boards/${board.id}/corners`, { corners }));
    } catch (error) { say.textContent = error.message; go.disabled = false; }
  });
  draw();
  return el("section", { class: "card" }, el("h2", { text: "Or show rink the board" }), say, wrap,
    el("div", { class: "row", style: "margin-top:10px" }, go, again));
}

function reviewCard(board) {
  const items = board.review.map((entry, i) => {
    const mine = (entry.alternatives || []).find((a) => a[0] === entry.token);
    const others = (entry.alternatives || []).filter((a) => a[0] !== entry.token).slice(0, 2);
    const pct = (p) => `${Math.max(1, Math.round(p * 100))}%`;
    return el("div", { class: "review-item", "data-row": entry.row, "data-col": entry.col },
      el("div", { class: "where", text: `${i + 1}. ${place(entry.row, entry.col)}` }),
      el("div", { class: "alts" },
        glyphButton(entry.token, mine ? `read ${pct(mine[1])}` : "read", "current",
          () => openPicker(board, entry.row, entry.col)),
        others.length ? el("span", { class: "or", text: "or" }) : null,
        others.map((a) => glyphButton(a[0], pct(a[1]), "sugg",
          (token) => setSpace(board, entry.row, entry.col, token))),
        el("span", { class: "grow" }),
        el("button", { class: "btn small keep", type: "button", "data-keep": `${entry.row},${entry.col}`,
          text: "✓ Right", title: "The reading is right",
          on: { click: () => setSpace(board, entry.row, entry.col, entry.token) } }),
        el("button", { class: "btn small", type: "button", text: "…", title: "Other pieces",
          "aria-label": "Other pieces", on: { click: () => openPicker(board, entry.row, entry.col) } })));
  });
  return el("section", { class: "card", id: "review" },
    el("h2", { text: `Check ${board.review.length === 1 ? "this space" : `these ${board.review.length} spaces`} first` }),
    el("p", { class: "muted", text: "The reader was unsure (outlined in amber on the board); the least sure come first. Tap what is drawn, or confirm its reading." }),
    items);
}

function boardFigure(board) {
  const img = board.image;
  const size = img.size, c = img.cell, pad = img.pad;
  const ex = board.explain;
  const colourOf = (net) => {
    if (net === null || net === undefined || !ex) return LOOSE;
    const network = ex.networks[net];
    return network && network.points > 0 ? NET_COLOURS[net % NET_COLOURS.length] : LOOSE;
  };
  const overlay = svg("svg", { viewBox: `0 0 ${size} ${size}`, id: "board-svg",
    role: "img", "aria-label": "The board as read" });
  const reading = svg("g", { class: "reading" });
  overlay.append(reading);
  reading.append(svg("rect", { x: 0, y: 0, width: size, height: size, fill: "#fff", "fill-opacity": 0.5 }));
  const cx = (col) => pad + (col + 0.5) * c, cy = (row) => pad + (row + 0.5) * c;
  // Central Spaces block
  reading.append(svg("rect", { x: pad + 2 * c, y: pad + 2 * c, width: 3 * c, height: 3 * c, fill: "none",
    stroke: "#17415f", "stroke-width": 2, "stroke-dasharray": "6 5", "stroke-opacity": 0.6 }));
  if (ex) {
    for (const [key, colour] of [["highway_route", HIGHWAY_BAND], ["railway_route", RAILWAY_BAND]]) {
      const path = ex[key];
      if (path.length) {
        reading.append(svg("polyline", { points: path.map(([r, q]) => `${cx(q)},${cy(r)}`).join(" "),
          fill: "none", stroke: colour, "stroke-width": c * 0.5, "stroke-opacity": 0.38,
          "stroke-linejoin": "round", "stroke-linecap": "round", class: `trace-${key}` }));
      }
    }
  }
  const grid = ex ? ex.spaces : null;
  for (let r = 0; r < 7; r++) {
    for (let q = 0; q < 7; q++) {
      const g = svg("g", {});
      if (grid) drawSpace(g, pad + q * c, pad + r * c, c, grid[r][q], colourOf);
      reading.append(g);
    }
  }
  if (ex) {
    // Exits: filled in their network's colour, hollow when nothing scores there
    const exitAt = (e) => {
      const d = pad / 2;
      if (e.side === 0) return [cx(e.col), d];
      if (e.side === 2) return [cx(e.col), size - d];
      if (e.side === 1) return [size - d, cy(e.row)];
      return [d, cy(e.row)];
    };
    ex.networks.forEach((n, i) => n.exits.forEach((e) => {
      const [x, y] = exitAt(e);
      reading.append(svg("circle", { cx: x, cy: y, r: pad * 0.36, fill: colourOf(i), stroke: "#fff",
        "stroke-width": 3, class: "exit" }));
      reading.append(svg("text", { x, y: y + pad * 0.14, "text-anchor": "middle", "font-size": pad * 0.4,
        "font-weight": 700, fill: "#fff", text: e.kind }));
    }));
    for (const e of ex.free_exits) {
      const [x, y] = exitAt(e);
      reading.append(svg("circle", { cx: x, cy: y, r: pad * 0.3, fill: "#fff", "fill-opacity": 0.8,
        stroke: "#8795a1", "stroke-width": 2 }));
    }
    // Central Spaces drawn on: ticks
    for (const [r, q] of ex.central) {
      const x = pad + q * c, y = pad + r * c;
      reading.append(svg("path", { d: `M${x + c * 0.08},${y + c * 0.84} l${c * 0.07},${c * 0.07} l${c * 0.13},${-c * 0.16}`,
        fill: "none", stroke: "#1e8e3e", "stroke-width": c * 0.06, "stroke-linecap": "round",
        "stroke-linejoin": "round", class: "central-tick" }));
    }
    // illegal drawings: dashed purple frames
    for (const item of ex.illegal) {
      for (const p of item.places) {
        reading.append(svg("rect", { x: pad + p.col * c + 3, y: pad + p.row * c + 3, width: c - 6, height: c - 6,
          fill: "none", stroke: "#8e24aa", "stroke-width": 4, "stroke-dasharray": "8 5", class: "illegal" }));
      }
    }
  }
  // corrected spaces, then review spaces, then the tap targets on top
  for (const fix of board.corrections || []) {
    reading.append(svg("circle", { cx: pad + fix.col * c + c * 0.14, cy: pad + fix.row * c + c * 0.14, r: c * 0.07,
      fill: "#0b63a5", class: "corrected" }));
  }
  (board.review || []).forEach((entry, i) => {
    reading.append(svg("rect", { x: pad + entry.col * c + 2, y: pad + entry.row * c + 2, width: c - 4, height: c - 4,
      rx: 6, fill: "none", stroke: "#ffb300", "stroke-width": 6, class: "review-ring" }));
    // its place in the list (1: the least sure), as the card above numbers it: an amber
    // badge in the outline's top right (Errors are numbered in red rings)
    const bx = pad + (entry.col + 1) * c - c * 0.16, by = pad + entry.row * c + c * 0.16;
    reading.append(svg("circle", { cx: bx, cy: by, r: c * 0.12, fill: "#ffb300" }));
    reading.append(svg("text", { x: bx, y: by + c * 0.055, "text-anchor": "middle",
      "font-size": c * 0.16, "font-weight": 800, fill: "#3d2a00", class: "review-rank",
      text: String(i + 1) }));
  });
  for (let r = 0; r < 7; r++) {
    for (let q = 0; q < 7; q++) {
      const hit = svg("rect", { x: pad + q * c, y: pad + r * c, width: c, height: c, class: "hit",
        "data-row": r, "data-col": q });
      hit.addEventListener("click", () => openPicker(board, r, q));
      overlay.append(hit);
    }
  }
  if (ex) {
    // Errors: numbered red circles at the side they leave from; a tap tells the reason
    const marks = svg("g", { class: "reading" });
    ex.errors.forEach((e, i) => {
      const dx = [0, 1, 0, -1][e.side], dy = [-1, 0, 1, 0][e.side];
      const x = cx(e.col) + dx * c * 0.4, y = cy(e.row) + dy * c * 0.4;
      const mark = svg("g", { class: "error-mark" }, svg("title", { text: `${i + 1}. ${capital(e.text)}` }),
        svg("circle", { cx: x, cy: y, r: c * 0.15, fill: "#fff", "fill-opacity": 0.85,
          stroke: "#c62828", "stroke-width": c * 0.045, class: "error-ring" }),
        svg("text", { x, y: y + c * 0.06, "text-anchor": "middle", "font-size": c * 0.17,
          "font-weight": 800, fill: "#c62828", text: String(i + 1) }));
      mark.addEventListener("click", () => toast(`Error ${i + 1}: ${capital(e.text)}`));
      marks.append(mark);
    });
    overlay.append(marks);
  }
  const wrap = el("div", { class: `board-wrap${state.photoOnly ? " photo-only" : ""}` },
    el("img", { src: withToken(img.url), alt: "The board, straightened", width: size, height: size }), overlay);
  const photoToggle = el("label", { class: "toggle" },
    el("input", { type: "checkbox", checked: state.photoOnly, on: { change: (e) => {
      state.photoOnly = e.target.checked; wrap.classList.toggle("photo-only", state.photoOnly);
    } } }), "Photo only");
  const undo = el("button", { class: "btn small", type: "button", id: "undo", disabled: !board.can_undo,
    text: "Undo", on: { click: async () => {
      try { renderBoard(await api(`/api/boards/${board.id}/undo`, {})); toast("Undone"); }
      catch (error) { toast(error.message); }
    } } });
  const legend = el("div", { class: "legend" },
    el("span", {}, el("span", { class: "swatch", style: `background:${HIGHWAY_BAND}` }), "Longest Highway"),
    el("span", {}, el("span", { class: "swatch", style: `background:${RAILWAY_BAND}` }), "Longest Railway"),
    el("span", {}, el("span", { class: "swatch", style: "border:3px solid #c62828;border-radius:99px" }), "Error"),
    el("span", {}, el("span", { class: "swatch", style: "border:3px solid #ffb300" }), "Check"),
    el("span", {}, el("span", { class: "swatch", style: "border:2px dashed #8e24aa" }), "Illegal"),
    el("span", {}, el("span", { class: "swatch", style: "background:#1e8e3e" }), "Central Space"));
  return el("figure", { class: "board-fig" }, wrap,
    el("div", { class: "board-tools" }, undo, photoToggle,
      el("span", { class: "muted grow", text: "Tap a space to correct it." })),
    legend);
}

function sheetCard(board) {
  const ex = board.explain;
  const rows = ex.rows.map((row) => {
    const label = el("td", {});
    if (row.network !== undefined) {
      label.append(el("span", { class: "swatch", style: `background:${NET_COLOURS[row.network % NET_COLOURS.length]}` }));
    }
    if (row.route) {
      label.append(el("span", { class: "swatch", style: `background:${row.route === "highway" ? HIGHWAY_BAND : RAILWAY_BAND}` }));
    }
    label.append(row.label);
    if (row.detail) label.append(el("span", { class: "detail", text: row.detail }));
    return el("tr", { class: row.total ? "total" : "" }, label,
      el("td", { class: "v", text: row.value, id: row.total ? "sheet-total" : null }));
  });
  return el("section", { class: "card" }, el("h2", { text: "Score sheet" }),
    el("table", { class: "sheet" }, el("tbody", {}, rows)), seenList(board));
}

function titleOf(name) {
  const known = (state.config && state.config.expansions) || [];
  const found = known.find((k) => k.name === name);
  return found ? found.title : name;
}

/* The expansions the photo shows, one line each with why; those not played say so. */
function seenList(board) {
  const exp = board.expansions || {};
  const seen = exp.seen || [];
  if (!seen.length) return null;
  const chooser = exp.from === "board" ? "this board's expansions, below" : "the night's expansions";
  return el("ul", { class: "tips", id: "expansions-seen" }, seen.map((s) => el("li", {
    text: `${titleOf(s.name)}: seen in the photo (${s.reason})` +
      (s.scored ? "" : `; not played, as ${chooser} say`) })));
}

function problemsCard(board) {
  const ex = board.explain;
  if (!ex.errors.length && !ex.illegal.length) return null;
  const parts = [];
  if (ex.errors.length) {
    parts.push(el("h2", { text: `Errors (${ex.errors.length})` }),
      el("ol", { class: "problems", id: "errors" }, ex.errors.map((e) => el("li", { text: capital(e.text) }))));
  }
  if (ex.illegal.length) {
    parts.push(el("h2", { text: `Illegal drawings (${ex.illegal.length}), scored as drawn`, style: "margin-top:12px" }),
      el("ul", { class: "tips", id: "illegal" }, ex.illegal.map((i) => el("li", { text: capital(i.text) }))));
  }
  return el("section", { class: "card" }, parts);
}

function correctionsCard(board) {
  return el("section", { class: "card" }, el("h2", { text: "Corrected by hand" }),
    el("ul", { class: "tips", id: "corrections" }, board.corrections.map((c) =>
      el("li", { text: c.token === c.was ? `${place(c.row, c.col)}: ${c.token}, confirmed as read`
        : `${place(c.row, c.col)}: ${c.token} (was ${c.was})` }))));
}

function rulesCard(board) {
  const known = state.config.expansions;
  const own = board.expansions.own;
  const nightNames = board.expansions.night;
  const chosen = new Set(own === null ? nightNames : own);
  const titles = Object.fromEntries(known.map((k) => [k.name, k.title]));
  const seenNames = (board.expansions.seen || []).map((s) => titles[s.name] || s.name);
  const nightWords = !board.expansions.night_chosen
    ? `what the photo shows: ${seenNames.length ? seenNames.join(", ") : "no river or lake"}`
    : nightNames.length ? nightNames.map((n) => titles[n] || n).join(", ") : "base game only";
  const useNight = el("input", { type: "radio", name: "exp-mode", value: "night", checked: own === null });
  const useOwn = el("input", { type: "radio", name: "exp-mode", value: "own", checked: own !== null });
  const boxes = known.map((k) => el("label", {},
    el("input", { type: "checkbox", value: k.name, checked: chosen.has(k.name), "data-exp": k.name }), k.title));
  const checks = el("div", { class: "checks" }, boxes);
  const keysBox = el("div", {});
  const error = el("p", { class: "err" });
  const current = {};
  for (const line of board.key_lines) {
    const at = line.indexOf(":");
    const key = line.slice(0, at), value = line.slice(at + 1).trim();
    (current[key] = current[key] || []).push(value);
  }
  const fields = [];
  const active = () => (useNight.checked ? nightNames
    : boxes.map((b) => b.firstChild).filter((b) => b.checked).map((b) => b.value));
  const drawKeys = async () => {
    const names = active();
    const info = await api(`/api/glyphs?expansions=${encodeURIComponent(names.join(","))}`);
    fields.length = 0;
    keysBox.replaceChildren();
    for (const exp of info.expansions) {
      for (const field of exp.keys) {
        const value = (current[field.key] || []).join(field.multi ? "\n" : " ");
        const input = field.multi
          ? el("textarea", { placeholder: field.hint, "data-key": field.key, value })
          : el("input", { placeholder: field.hint, "data-key": field.key, value });
        fields.push([field, input]);
        keysBox.append(el("label", { class: "field" }, `${exp.title}: ${field.label}`, input));
      }
    }
    checks.style.opacity = useNight.checked ? 0.5 : 1;
    boxes.forEach((b) => { b.firstChild.disabled = useNight.checked; });
  };
  [useNight, useOwn, ...boxes.map((b) => b.firstChild)].forEach((i) => i.addEventListener("change", drawKeys));
  const save = el("button", { class: "btn primary", type: "button", text: "Save and rescore", on: { click: async () => {
    error.textContent = "";
    const lines = [];
    for (const [field, input] of fields) {
      const parts = field.multi ? input.value.split("\n") : [input.value];
      for (const part of parts) if (part.trim()) lines.push(`${field.key}: ${part.trim()}`);
    }
    try {
      const view = await api(`/api/boards/${board.id}/rules`, { expansions: useNight.checked ? null : active(), key_lines: lines });
      await loadGlyphs(view);
      renderBoard(view);
      toast("Rescored");
    } catch (e) { error.textContent = e.message; }
  } } });
  drawKeys();
  return el("section", { class: "card", id: "rules" }, el("h2", { text: "Expansions" }),
    el("label", { class: "toggle" }, useNight, `Same as the night (${nightWords})`),
    el("div", {}, el("label", { class: "toggle" }, useOwn, "This board plays:")),
    checks, keysBox, el("p", { class: "muted", text: "Fill in what a photo cannot show. Spaces are row,column (0-6 from the top-left); places outside the grid are a side letter and a number (N2: above column 2)." }),
    save, error);
}

/* ---------- the glyph picker ---------- */
function closeModal() {
  const open = document.querySelector(".modal-back");
  if (open) open.remove();
}
function openPicker(board, row, col) {
  if (!board.alternatives) return;
  closeModal();
  const catalogue = glyphsFor(board);
  const now = board.explain ? board.explain.spaces[row][col].token : board.grid[row][col];
  const pick = (token) => { closeModal(); setSpace(board, row, col, token); };
  const suggestions = (board.alternatives[row][col] || []).slice(0, 6);
  const body = [el("p", {}, "Now: ", el("code", { text: now }))];
  body.push(el("h3", { text: "The reader's suggestions" }),
    el("div", { class: "glyph-grid", id: "suggestions" },
      suggestions.map(([token, p]) => glyphButton(token, `${Math.max(1, Math.round(p * 100))}%`,
        `sugg ${token === now ? "current" : ""}`, pick))));
  for (const group of catalogue.groups) {
    body.push(el("h3", { text: group.title }), el("div", { class: "glyph-grid" },
      group.glyphs.map((g) => glyphButton(g.token, g.token, g.token === now ? "current" : "", pick))));
  }
  const markers = catalogue.expansions.flatMap((e) => e.markers);
  if (markers.length) {
    const stem = now.replace(/(@[A-Z]|[!?*#])+$/, "");
    body.push(el("h3", { text: "Marks on this space" }), el("div", { class: "row" },
      markers.map((m) => {
        const has = now.slice(stem.length).includes(m.marker);
        const next = has ? stem + now.slice(stem.length).replace(m.marker, "") : stem + now.slice(stem.length) + m.marker;
        return el("button", { class: "btn small", type: "button", text: `${has ? "Remove" : "Add"} ${m.label}`,
          on: { click: () => pick(next === "" ? "." : next) } });
      })));
  }
  const typed = el("input", { class: "text", placeholder: "e.g. H_R_ or W_W_", id: "typed-token",
    autocapitalize: "characters", autocomplete: "off", spellcheck: "false" });
  body.push(el("h3", { text: "Type a token" }), el("div", { class: "row" }, el("div", { class: "grow" }, typed),
    el("button", { class: "btn", type: "button", text: "Set", on: { click: () => typed.value.trim() && pick(typed.value.trim()) } })));
  const modal = el("div", { class: "modal", role: "dialog", "aria-modal": "true", id: "picker" },
    el("div", { class: "modal-head" }, el("h2", { text: place(row, col) }),
      el("button", { class: "close", type: "button", "aria-label": "Close", text: "×", on: { click: closeModal } })),
    body);
  const back = el("div", { class: "modal-back", on: { click: (e) => { if (e.target === back) closeModal(); } } }, modal);
  document.body.append(back);
}

async function setSpace(board, row, col, token) {
  try {
    const view = await api(`/api/boards/${board.id}/set`, { row, col, token });
    renderBoard(view);
    toast(`${place(row, col)}: ${token}. Total ${view.explain ? view.explain.score.total : "–"}`);
  } catch (error) { toast(error.message); }
}

/* ---------- the night ---------- */
function boardTable(night, ids) {
  const byId = Object.fromEntries(night.standings.map((s) => [s.id, s]));
  const rows = ids.map((id) => {
    const b = night.boards.find((x) => x.id === id);
    const s = byId[id];
    return el("tr", { class: "go", "data-id": id, on: { click: () => { location.hash = `#/board/${id}`; } } },
      el("td", { class: "grow", text: b.label }),
      el("td", { class: "n", text: s ? String(s.total) : (b.status === "reading" ? "reading…" : "not read") }));
  });
  return el("table", { class: "board-list" }, el("tbody", {}, rows));
}

async function showNight() {
  const night = await api("/api/night");
  state.night = night;
  renderNight(night);
  state.poll = setInterval(async () => {
    try {
      const fresh = await api("/api/night");
      if (fresh.version !== state.night.version) { state.night = fresh; renderNight(fresh); }
    } catch (e) { /* keep the last leaderboard */ }
  }, 3000);
}

function renderNight(night) {
  const rows = night.standings.map((s) => el("tr", { class: "go", "data-id": s.id,
      on: { click: () => { location.hash = `#/board/${s.id}`; } } },
    el("td", { class: "rank", text: `${s.rank}.` }),
    el("td", {}, el("div", { text: s.label, class: "who" }),
      s.review ? el("span", { class: "badge", text: `${s.review} to check` }) : null,
      s.corrected ? el("span", { class: "badge fix", text: `${s.corrected} corrected` }) : null),
    el("td", { class: "n", text: String(s.total) }),
    el("td", { class: "n", text: String(s.errors) })));
  const scored = new Set(night.standings.map((s) => s.id));
  const others = night.boards.filter((b) => !scored.has(b.id));
  const known = state.config.expansions;
  const boxes = known.map((k) => el("label", {},
    el("input", { type: "checkbox", value: k.name, checked: night.expansions.includes(k.name) }), k.title));
  const fromPhoto = el("input", { type: "radio", name: "night-mode", value: "photo", checked: !night.expansions_chosen });
  const chosen = el("input", { type: "radio", name: "night-mode", value: "chosen", checked: night.expansions_chosen });
  const checks = el("div", { class: "checks" }, boxes);
  const modeChanged = () => {
    checks.style.opacity = fromPhoto.checked ? 0.5 : 1;
    boxes.forEach((b) => { b.firstChild.disabled = fromPhoto.checked; });
  };
  [fromPhoto, chosen].forEach((i) => i.addEventListener("change", modeChanged));
  modeChanged();
  const note = el("p", { class: "err" });
  show(
    el("section", { class: "card" },
      el("h1", { text: "Leaderboard" }),
      night.standings.length
        ? el("table", { class: "board-list", id: "leaderboard" },
          el("thead", {}, el("tr", {}, el("th", { text: "#" }), el("th", { text: "Player" }),
            el("th", { text: "Points", style: "text-align:right" }), el("th", { text: "Errors", style: "text-align:right" }))),
          el("tbody", {}, rows))
        : el("p", { class: "muted", text: "No board scored yet tonight." }),
      el("p", { class: "muted", text: "Ranked by total, then fewer Errors; a tie shares the rank. Tap a board to open or fix it." }),
      el("div", { class: "row" },
        el("a", { class: "btn", href: withToken("/api/night.csv"), download: `${night.folder}.csv`, id: "csv", text: "Download CSV" }),
        el("a", { class: "btn primary", href: "#/", text: "Score a board" }))),
    others.length ? el("section", { class: "card" }, el("h2", { text: "Not scored" }), boardTable(night, others.map((b) => b.id))) : null,
    el("section", { class: "card" }, el("h2", { text: "Tonight's expansions" }),
      el("p", { class: "muted", text: "Every board plays this unless it says otherwise." }),
      el("div", {}, el("label", { class: "toggle" }, fromPhoto, "What each photo shows (River and Lake when drawn)")),
      el("div", {}, el("label", { class: "toggle" }, chosen, "Every board plays:")),
      checks,
      el("button", { class: "btn", type: "button", id: "night-save", text: "Save for the night", on: { click: async () => {
        try {
          const names = boxes.map((b) => b.firstChild).filter((b) => b.checked).map((b) => b.value);
          state.night = await api("/api/night/rules", { expansions: fromPhoto.checked ? null : names });
          renderNight(state.night);
          toast("Saved: every board rescored");
        } catch (e) { note.textContent = e.message; }
      } } }), note));
}

window.addEventListener("hashchange", route);
window.addEventListener("DOMContentLoaded", route);
