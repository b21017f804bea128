// pmemo inspector, the shared parts: state, the API call, the key, building nodes (data is
// always inserted as text, never as HTML), and the owner in a query or a body.

export const $ = (id) => document.getElementById(id);
export const state = {
  owner: null, session: "", page: "memory", members: [], person: null, snapshot: null,
  speakers: [], timeline: { offset: 0 },
};

// --- the key: #key=... in the URL (from `pmemo serve`) or typed, kept in sessionStorage:
// it lasts while the tab is open and is never written to disk for other pages or later visits
const KEY = "pmemo.key";
export function readKeyFromFragment() {
  // a key an older inspector left in localStorage moves to this tab's session, and is gone from disk
  const old = localStorage.getItem(KEY);
  if (old !== null) {
    if (!sessionStorage.getItem(KEY)) sessionStorage.setItem(KEY, old);
    localStorage.removeItem(KEY);
  }
  const m = location.hash.match(/(?:^#|&)key=([^&]+)/);
  if (m) {
    sessionStorage.setItem(KEY, decodeURIComponent(m[1]));
    history.replaceState(null, "", location.pathname + location.search);
  }
}
export const apiKey = () => sessionStorage.getItem(KEY) || "";
export const setKey = (key) => sessionStorage.setItem(KEY, key);

export function status(msg, isError = false) {
  const node = $("status");
  node.textContent = msg;
  node.className = isError ? "error" : "";
}

// requests in flight: the page says it is busy meanwhile (<body aria-busy>), for assistive
// technology and for tests that wait until what an action loads is shown
let inFlight = 0;
function busy(delta) {
  inFlight += delta;
  document.body.setAttribute("aria-busy", String(inFlight > 0));
}

export async function api(method, path, body) {
  const opts = { method, headers: { Authorization: "Bearer " + apiKey() } };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  busy(+1);
  try {
    const res = await fetch(path, opts);
    if (res.status === 204) return null;
    const data = await res.json().catch(() => ({}));
    if (!res.ok) {
      const err = new Error(data.detail || res.statusText || "request failed");
      err.status = res.status;
      err.body = data;
      throw err;
    }
    return data;
  } finally {
    busy(-1);
  }
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) {
    if (c === null || c === undefined || c === "") continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function empty(list, text) { if (!list.children.length) list.append(el("li", { class: "empty" }, text)); }

// --- the owner: "u:<user>" or "g:<group>"
function ownerParts() {
  const [kind, ...rest] = state.owner.split(":");
  return [kind, rest.join(":")];
}
export function ownerQuery() {
  const [kind, id] = ownerParts();
  return (kind === "g" ? "group_id=" : "user_id=") + encodeURIComponent(id);
}
export function ownerBody() {
  const [kind, id] = ownerParts();
  return kind === "g" ? { group_id: id } : { user_id: id };
}
export const isGroup = () => (state.owner || "").startsWith("g:");
export function ownerWords(owner = state.owner) {
  if (!owner) return "nobody";
  const [kind, ...rest] = owner.split(":");
  return (kind === "g" ? "group " : "user ") + rest.join(":");
}

// --- reloading after an action: set by app.js, so pages need not import each other
const hooks = { refresh: async () => {} };
export const onRefresh = (fn) => { hooks.refresh = fn; };
export const refresh = () => hooks.refresh();

// a person id as a name: a member's display name, else the id
export function personName(id) {
  const m = state.members.find((x) => x.person.id === id);
  if (m) return m.person.name || id;
  return id.startsWith("name:") ? id.slice(5) : id;
}
