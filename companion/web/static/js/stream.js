// The page's one push stream: a snapshot on connect, then numbered messages; a gap asks for a new
// snapshot; a dropped socket, a woken tablet or a page restored from the back-forward cache
// reconnects by itself. The connection state is always reported, so the page can show it.

export function openStream(model, onState) {
  let ws = null;
  let last = null; // seq of the last message applied; null until a snapshot arrives
  let openedAt = 0;
  let retries = 0;
  let timer = null;

  function url() { return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/api/stream`; }

  function connect() {
    clearTimeout(timer);
    if (ws && (ws.readyState === WebSocket.CONNECTING || ws.readyState === WebSocket.OPEN)) return;
    onState("connecting");
    last = null;
    const socket = new WebSocket(url());
    ws = socket;
    socket.onopen = () => { openedAt = Date.now(); retries = 0; };
    socket.onmessage = (e) => { if (socket === ws) receive(JSON.parse(e.data)); };
    socket.onclose = () => { if (socket === ws) { ws = null; onState("offline"); later(); } };
    socket.onerror = () => socket.close();
  }

  function receive(m) {
    if (m.type === "snapshot") {
      last = m.seq;
      model.snapshot(m);
      return onState("live");
    }
    if (last === null || m.seq <= last) return; // waiting for a snapshot, or already in it
    if (m.seq !== last + 1) { // missed something: ask for the whole picture again
      last = null;
      onState("catching up");
      return ws.send(JSON.stringify({ type: "resync" }));
    }
    last = m.seq;
    model.apply(m);
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(connect, Math.min(4000, 250 * 2 ** retries++));
  }

  // A sleeping tablet's socket can look open yet be dead: on waking, start afresh.
  function wake() {
    if (document.hidden) return;
    if (ws && ws.readyState === WebSocket.OPEN && Date.now() - openedAt < 2000) return;
    if (ws) { const old = ws; ws = null; old.close(); }
    retries = 0;
    connect();
  }

  document.addEventListener("visibilitychange", wake);
  window.addEventListener("pageshow", (e) => { if (e.persisted) wake(); });
  window.addEventListener("online", wake);
  connect();
  return {
    resync() { if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "resync" })); else wake(); },
    wake,
  };
}
