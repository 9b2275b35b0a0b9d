// Keeps what the page announces — status, alert and live regions, <output>, toasts, snackbars,
// flash messages, and the message of a field turned aria-invalid — with when it was shown
// (Date.now()), so that an action's report lists what appeared during the action even when it
// is gone by the time the report is read (a toast up for 1.5 s). Installed in every frame at
// document start; document.js's `announced` reads it. Bounded: the latest 50 texts of at most
// 300 characters, and at most 300 changes looked at per batch.
(() => {
  const key = Symbol.for('planwright.announced');
  if (window[key] !== undefined) return;
  const log = [];
  Object.defineProperty(window, key, { value: log, enumerable: false });
  const REGION = [
    '[role=status]', '[role=alert]', '[role=alertdialog]', '[role=log]',
    '[aria-live=polite]', '[aria-live=assertive]', 'output',
    ...['toast', 'snackbar', 'notification', 'flash', 'message'].flatMap((w) => [`[class*=${w} i]`, `[id*=${w} i]`]),
  ].join(',');
  const ERROR_WORDS = /error|danger|fail|invalid/i;
  const last = new WeakMap();
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim().slice(0, 300);
  // Each element that announces gets a number, so that a reader can tell a region that was
  // already announcing before an action (a clock, a countdown) from news of the action.
  const serials = new WeakMap();
  let serial = 0;
  const note = (text, kind, el) => {
    if (!text) return;
    if (!serials.has(el)) serials.set(el, ++serial);
    log.push({ text, kind, at: Date.now(), from: serials.get(el) });
    if (log.length > 50) log.splice(0, log.length - 50);
  };
  // An element without a box (display: none, not attached) shows nothing; innerText would give
  // its hidden text.
  const shownText = (el) => (el.isConnected && el.getClientRects().length > 0 ? norm(el.innerText) : '');
  // An alert, or a region whose class or id says it holds an error (`toast toast-error`).
  const kindOf = (region) => {
    if (region.getAttribute('role') === 'alert') return 'alert';
    return ERROR_WORDS.test(`${region.getAttribute('class') || ''} ${region.id || ''}`) ? 'alert' : 'status';
  };
  // A region is announced whole when it is short (a toast, a status line); in a long one (a chat
  // log, a page-wide `class="messages"`) only the element that changed, so that neither a stale
  // text is announced nor a large one read again on every change.
  const SHORT = 1000;
  // Content written again is news even when it is the same text ("Saved" after a second save, as
  // a screen reader says it again); an attribute's change only when the text shown changes.
  const look = (region, changed, rewritten) => {
    const el = region.textContent.length <= SHORT ? region : changed;
    if (!el || el.textContent.length > SHORT) return;
    const text = shownText(el);
    if (text === last.get(el) && !rewritten) return;
    last.set(el, text);
    note(text, kindOf(region), el);
  };
  // The innermost region around `el`; a whole page or its main part is none, whatever its class.
  const regionOf = (el) => {
    const region = el.closest(REGION);
    return region && !['html', 'body', 'main'].includes(region.localName) ? region : null;
  };
  const textOf = (ids, doc) =>
    norm((ids || '').split(/\s+/).map((id) => doc.getElementById(id)).filter(Boolean).map((e) => e.innerText || e.textContent).join(' '));
  const invalid = (field) => {
    if (field.getAttribute('aria-invalid') !== 'true') return;
    const doc = field.ownerDocument;
    note(textOf(field.getAttribute('aria-errormessage'), doc) || textOf(field.getAttribute('aria-describedby'), doc) ||
      norm(field.validationMessage), 'alert', field);
  };
  const changed = (records) => {
    for (const record of records.slice(0, 300)) {
      const target = record.target.nodeType === 1 ? record.target : record.target.parentElement;
      if (!target) continue;
      if (record.type === 'attributes' && record.attributeName === 'aria-invalid') {
        invalid(target);
        continue;
      }
      const around = regionOf(target);
      const rewritten = record.type !== 'attributes';
      const added = record.type === 'childList' ? [...record.addedNodes].filter((n) => n.nodeType === 1) : [];
      if (around && (added.length === 0 || around.textContent.length <= SHORT)) look(around, target, rewritten);
      else if (around) for (const node of added) look(around, node, rewritten);
      // Regions that came with the change: added, or shown by an attribute of an element around them.
      const came = record.type === 'attributes' ? [target] : added;
      for (const node of came) {
        if (node !== around && node.matches(REGION)) look(node, node, false);
        const inner = node.querySelectorAll(REGION);
        for (let i = 0; i < inner.length && i < 20; i++) look(inner[i], inner[i], false);
      }
    }
  };
  const start = () => {
    new MutationObserver(changed).observe(document, {
      subtree: true, childList: true, characterData: true,
      attributes: true, attributeFilter: ['class', 'style', 'hidden', 'open', 'aria-invalid'],
    });
  };
  if (document.documentElement) start(); else document.addEventListener('readystatechange', start, { once: true });
})();
