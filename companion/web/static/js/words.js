// The table's words on a page: the tablet's language (its own choice, remembered here, else the
// browser's), that language's catalogue from /api/words/<language>, and t() to say a key with its
// named placeholders filled. Static text in a page carries data-words="key" and is filled by
// applyWords(). How to add words: docs/words.md.

const STORED = "incanto.language";
export const LANGUAGES = ["en", "de"];
const NAMES = { en: "English", de: "Deutsch" }; // each in its own language, so anyone finds theirs

export const lang = chosenLanguage();
document.documentElement.lang = lang;
// The server says refusals in the tablet's language: it reads this cookie (then Accept-Language).
document.cookie = `incanto_language=${lang}; path=/; max-age=31536000; samesite=strict`;
const words = await load(lang);

function chosenLanguage() {
  let stored = null;
  try { stored = localStorage.getItem(STORED); } catch (e) { /* storage off: the browser's language */ }
  if (LANGUAGES.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

async function load(language) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const response = await fetch(`/api/words/${language}`, { credentials: "same-origin" });
      if (response.ok) return await response.json();
    } catch (e) { /* the Wi-Fi blinked: once more */ }
    await new Promise((r) => setTimeout(r, 300 * (attempt + 1)));
  }
  return {};
}

/** The words for ``key``, ``{name}`` placeholders filled from ``values``. A key the catalogue lacks
 *  shows as itself (and in the console), so a missing sentence is seen, never silently English. */
export function t(key, values = {}) {
  const text = words[key];
  if (text === undefined) { console.warn("no words for", key); return key; }
  return fill(text, values);
}

export function fill(text, values = {}) {
  // A value that names its own words ({key, values}: a colour) is said in this language too.
  return String(text).replace(/\{(\w+)\}/g, (whole, name) => {
    const value = values[name];
    if (value === undefined || value === null) return whole;
    if (value && typeof value === "object" && typeof value.key === "string") return t(value.key, value.values || {});
    // A value written in each language where it comes from (a data file's description of a place).
    if (value && typeof value === "object" && value.in && typeof value.in === "object") return String(value.in[lang] ?? value.in.en ?? "");
    return String(value);
  });
}

export function has(key) { return Object.prototype.hasOwnProperty.call(words, key); }

/** A game's term (its token, card or place) from its data/words.json; ``fallback`` when it lists none. */
export function term(game, key, fallback) {
  return has(`${game}.${key}`) ? t(`${game}.${key}`) : (fallback ?? key);
}

/** A notice's or a refusal's ``words`` ({key, values}) said here; ``fallback`` (the server's English) else. */
export function sentence(said, fallback = "") {
  if (said && typeof said.key === "string" && has(said.key)) return t(said.key, said.values || {});
  return fallback;
}

/** Fill every element under ``root`` that names its words: data-words (its text), data-words-label
 *  (aria-label), data-words-placeholder, data-words-title. */
export function applyWords(root = document) {
  for (const node of root.querySelectorAll("[data-words]")) node.textContent = t(node.dataset.words);
  for (const node of root.querySelectorAll("[data-words-label]")) node.setAttribute("aria-label", t(node.dataset.wordsLabel));
  for (const node of root.querySelectorAll("[data-words-placeholder]")) node.setAttribute("placeholder", t(node.dataset.wordsPlaceholder));
  for (const node of root.querySelectorAll("[data-words-title]")) node.setAttribute("title", t(node.dataset.wordsTitle));
  const title = document.querySelector("title[data-words]");
  if (title) document.title = t(title.dataset.words);
}

/** The header's language switch: the other language, named in its own words (so anyone finds theirs);
 *  remembered on this tablet, the page drawn again in it. A link, not a menu: a page's menus are its
 *  game's choices. */
export function languageSwitch() {
  const other = LANGUAGES[(LANGUAGES.indexOf(lang) + 1) % LANGUAGES.length];
  const link = document.createElement("a");
  link.id = "language";
  link.href = "#";
  link.lang = other;
  link.className = "language";
  link.dataset.language = other;
  link.setAttribute("aria-label", `${t("shell.language")}: ${NAMES[other]}`);
  link.textContent = NAMES[other];
  link.addEventListener("click", (e) => {
    e.preventDefault();
    try { localStorage.setItem(STORED, other); } catch (err) { /* kept for this page only */ }
    document.cookie = `incanto_language=${other}; path=/; max-age=31536000; samesite=strict`;
    location.reload();
  });
  return link;
}
