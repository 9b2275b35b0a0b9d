// Functions called on a frame's document (`this`) through Runtime.callFunctionOn; js.rs wraps
// this file in one function that dispatches to them by name.

// BY_TEXT: the elements whose own text matches, with Playwright's getByText semantics: whitespace
// normalised; by default a case-insensitive substring, exact = the whole string; an element
// matches when its text matches and no child element's text does (the smallest match).
function byText(text, exact) {
  const norm = s => s.replace(/[\s\u200b]+/g, ' ').trim();
  const wanted = exact ? norm(text) : norm(text).toLowerCase();
  const test = s => { const n = norm(s); return exact ? n === wanted : n.toLowerCase().includes(wanted); };
  const skip = new Set(['script', 'style', 'noscript', 'template', 'head']);
  const cache = new Map();
  const childrenOf = el => el.shadowRoot ? [...el.shadowRoot.childNodes] : [...el.childNodes];
  const textOf = el => {
    if (cache.has(el)) return cache.get(el);
    let out = '';
    if (el.localName === 'input' && ['button', 'submit', 'reset'].includes(el.type)) out = el.value;
    else for (const child of childrenOf(el)) {
      if (child.nodeType === 3) out += child.nodeValue;
      else if (child.nodeType === 1 && !skip.has(child.localName)) out += textOf(child);
    }
    cache.set(el, out);
    return out;
  };
  const found = [];
  const visit = el => {
    if (skip.has(el.localName)) return;
    const kids = childrenOf(el).filter(n => n.nodeType === 1);
    if (test(textOf(el)) && !kids.some(k => !skip.has(k.localName) && test(textOf(k)))) found.push(el);
    for (const kid of kids) visit(kid);
  };
  if (this.body) visit(this.body);
  return found;
}

// BY_TEST_ID: elements with data-testid equal to `id`, inside open shadow roots too.
function byTestId(id) {
  const found = [];
  const selector = `[data-testid="${CSS.escape(id)}"]`;
  const visit = root => {
    found.push(...root.querySelectorAll(selector));
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) visit(el.shadowRoot);
  };
  visit(this);
  return found;
}

// ANNOUNCED: what this frame announced (status and alert regions, toasts …: see announce.js)
// at or after `since` (ms since the epoch), oldest first; [] in a document that has no watcher.
// An announcement is `ongoing` when its element announced twice or more in the 10 s before
// `since`: a clock or a countdown, not a status line an earlier action wrote once.
function announced(since) {
  const log = this.defaultView && this.defaultView[Symbol.for('planwright.announced')];
  if (!log) return [];
  const before = new Map();
  for (const a of log) if (a.at < since && a.at >= since - 10000) before.set(a.from, (before.get(a.from) || 0) + 1);
  return log.filter(a => a.at >= since).map(a => ({ text: a.text, kind: a.kind, ongoing: (before.get(a.from) || 0) >= 2 }));
}

// VISIBLE_TEXT: the frame's rendered text (hidden elements left out), its first `max`
// characters; '' for a frame that is not rendered (in a hidden iframe innerText would give the
// hidden text too).
function visibleText(max) {
  const body = this.body;
  if (!body || body.getClientRects().length === 0) return '';
  return body.innerText.slice(0, max);
}

// PENDING_REQUESTS: how many of the frame's fetch and XHR requests (see quiet.js) started less
// than `maxAge` ms ago and have no answer yet.
function pendingRequests(maxAge) {
  const view = this.defaultView;
  const unanswered = view && view[Symbol.for('planwright.unanswered')];
  return unanswered ? unanswered(maxAge) : 0;
}

// RESTLESS: the visible lines of the elements whose text changed on their own (see quiet.js) twice
// or more, a second apart, in the `span` ms before `before` (ms since the epoch): a clock, a
// rotating banner, a score. A line is a line of the frame's visible text (visibleText), trimmed:
// an element inside a sentence ("Local time: <span>12:00:03</span>") gives the sentence's line.
// At most `maxLines` lines of at most `maxChars` characters.
function restless(before, span, maxLines, maxChars) {
  const view = this.defaultView;
  const changed = view && view[Symbol.for('planwright.selfChanged')];
  const caused = (view && view[Symbol.for('planwright.causedChange')]) || new Map();
  if (!changed || !this.body) return [];
  // Displays that do not start a line of their own in innerText.
  const inline = /^(inline|contents|table-cell|ruby)/;
  const linesOf = (el) => el.innerText.split('\n').map((line) => line.trim()).filter(Boolean);
  const found = new Set();
  for (let [el, times] of changed) {
    // Twice in the span — or once, from a timer of the page's own that repeats — and not
    // changed by an input since.
    const recent = times.filter((at) => at <= before && at >= before - span).length;
    if (recent < (times.repeating ? 1 : 2) || (caused.get(el) || 0) > times[times.length - 1]) continue;
    while (el && !(el instanceof view.HTMLElement)) el = el.parentElement;
    if (!el || !el.isConnected || el.getClientRects().length === 0 || !this.body.contains(el)) continue;
    const own = linesOf(el);
    let box = el;
    while (box !== this.body && box.parentElement && inline.test(view.getComputedStyle(box).display)) box = box.parentElement;
    for (const line of box === el ? own : linesOf(box).filter((line) => own.some((part) => line.includes(part)))) {
      found.add(Array.from(line).slice(0, maxChars).join(''));
      if (found.size >= maxLines) return [...found];
    }
  }
  return [...found];
}
