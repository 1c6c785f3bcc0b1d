// What a page knows of the table: a snapshot, then every pushed message applied in order.

const NOTICES_KEPT = 20;

export class Model {
  constructor() {
    this.game = null;
    this.history = [];
    this.night = null;
    this.status = [];
    this.questions = [];
    this.lastEvent = null;
    this.notices = []; // pushed as they happen, never in a snapshot: a page knows those since it opened
    this.lastNotice = null;
    this.listeners = [];
  }

  onChange(listener) { this.listeners.push(listener); }

  changed(why) {
    for (const listener of this.listeners) {
      // A page part that fails to draw (say, its script could not load) draws again on the next change.
      Promise.resolve().then(() => listener(why, this)).catch((e) => console.warn("could not draw:", e));
    }
  }

  snapshot(m) {
    Object.assign(this, { game: m.game, history: m.history || [], night: m.night, status: m.status || [],
                          questions: m.questions || [] });
    this.changed("snapshot");
  }

  apply(m) {
    if (m.type === "snapshot") return this.snapshot(m);
    if (m.type === "status") { this.status = m.status; return this.changed("status"); }
    if (m.type === "questions") { this.questions = m.questions; return this.changed("questions"); }
    if (m.type === "event") return this.event(m);
    if (m.type === "notice") return this.notice(m.notice);
  }

  notice(n) {
    this.notices = [...this.notices.slice(1 - NOTICES_KEPT), n];
    this.lastNotice = n;
    this.changed("notice");
  }

  event(m) {
    // A snapshot taken while this event was on its way already contains it.
    if (this.game && m.game.version <= this.game.version) return;
    this.game = m.game;
    if (!this.history.some((e) => e.seq === m.event.seq)) this.history.push({ ...m.event, in_effect: null });
    const inEffect = new Set(m.in_effect);
    for (const e of this.history) if (e.kind === "action") e.in_effect = inEffect.has(e.seq);
    if (m.standings && this.night) this.night.standings = m.standings;
    this.lastEvent = m.event;
    this.changed("event");
  }
}
