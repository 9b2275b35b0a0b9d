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
  const note = (text, kind) => {
    if (!text) return;
    log.push({ text, kind, at: Date.now() });
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
  const look = (region) => {
    const text = shownText(region);
    if (text === last.get(region)) return;
    last.set(region, text);
    note(text, kindOf(region));
  };
  const textOf = (ids, doc) =>
    norm((ids || '').split(/\s+/).map((id) => doc.getElementById(id)).filter(Boolean).map((e) => e.innerText || e.textContent).join(' '));
  const invalid = (field) => {
    if (field.getAttribute('aria-invalid') !== 'true') return;
    const doc = field.ownerDocument;
    note(textOf(field.getAttribute('aria-errormessage'), doc) || textOf(field.getAttribute('aria-describedby'), doc) ||
      norm(field.validationMessage), 'alert');
  };
  const changed = (records) => {
    for (const record of records.slice(0, 300)) {
      const target = record.target.nodeType === 1 ? record.target : record.target.parentElement;
      if (!target) continue;
      if (record.type === 'attributes' && record.attributeName === 'aria-invalid') {
        invalid(target);
        continue;
      }
      const around = target.closest(REGION);
      if (around) look(around);
      const shown = record.type === 'childList' ? record.addedNodes : record.type === 'attributes' ? [target] : [];
      for (const node of shown) {
        if (node.nodeType !== 1) continue;
        const inner = node === around ? [] : node.querySelectorAll(REGION);
        if (node !== around && node.matches(REGION)) look(node);
        for (let i = 0; i < inner.length && i < 20; i++) look(inner[i]);
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
