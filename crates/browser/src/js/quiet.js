// Keeps the time of the page's last DOM change (a number ticking aside) and the requests the page has started and not
// yet had answered, so that a step can wait for the page to be quiet. The page knows of a request
// the moment it starts one; DevTools' event for it can come later on a loaded machine.
// Keeps too, per element, when its text changed on its own — no input, nor anything an input
// started, behind it (a rotating banner, a clock, a score) — which document.js's `restless` reads:
// such a change is no evidence that an action worked.
(() => {
  const key = Symbol.for('planwright.lastMutation');
  if (window[key] !== undefined) return;
  Object.defineProperty(window, key, { value: { at: performance.now() }, enumerable: false });
  // A clock, a countdown or a score ticking ("Time left: 118 / 120sec") changes only digits in
  // a text: the page is as still as before, or a page that shows one would never be.
  const shape = (text) => (text || '').replace(/[0-9]+/g, '#');
  const textOf = (nodes) => Array.from(nodes, (node) => node.textContent).join('');
  const tick = (m) => {
    if (m.type === 'characterData') return shape(m.oldValue) === shape(m.target.data);
    if (m.type !== 'childList' || m.addedNodes.length === 0 || m.removedNodes.length === 0) return false;
    const simple = (node) => node.nodeType === Node.TEXT_NODE || (node.nodeType === Node.ELEMENT_NODE && node.children.length === 0);
    return Array.from(m.addedNodes).every(simple) && Array.from(m.removedNodes).every(simple)
      && shape(textOf(m.addedNodes)) === shape(textOf(m.removedNodes));
  };

  // What an input caused: a change within AFTER_INPUT of an input in this frame or a same-origin
  // frame above or below it; within AFTER_INPUT of the answer to a request started meanwhile (a slow
  // server); inside a timer set meanwhile (a "Checking…" shown for 2 s). Only for CHAIN after the
  // input, so that a clock whose timer was set during an input is not its doing for ever.
  const AFTER_INPUT = 1500;
  const CHAIN = 10000;
  // `own`: a timer the page set with nothing of the person's behind it is running (a clock's
  // tick, a banner's turn), `repeating` when it was an interval or a chain of timers: what it
  // changes is the page's own whenever it runs, even just after an input.
  const cause = { input: 0, answer: 0, answerFrom: 0, timer: 0, own: false, repeating: false };
  Object.defineProperty(window, Symbol.for('planwright.cause'), { value: cause, enumerable: false });
  // The causes of this frame and of the same-origin frames around it.
  const around = () => {
    const causes = [cause];
    for (let frame = window; frame !== frame.parent;) {
      frame = frame.parent;
      try {
        const theirs = frame[Symbol.for('planwright.cause')];
        if (theirs) causes.push(theirs);
      } catch {
        // Another origin's frame: out of reach.
      }
    }
    return causes;
  };
  // An input is noted in the frames around too, so that a change it makes there (or in another
  // frame below them) is its doing. Hovering and focusing count: a page restyles what the pointer
  // or the focus is on.
  for (const type of ['pointerdown', 'pointerover', 'keydown', 'input', 'change', 'click', 'focusin', 'wheel']) {
    window.addEventListener(type, () => {
      const now = Date.now();
      for (const c of around()) c.input = now;
    }, { capture: true, passive: true });
  }
  const lastInput = () => Math.max(...around().map((c) => c.input));
  // The time of the input the present moment follows from, or 0 when nothing of the person's did.
  const causeNow = () => {
    if (cause.own) return 0;
    const now = Date.now();
    if (cause.timer && now - cause.timer <= CHAIN) return cause.timer;
    const input = lastInput();
    if (now - input <= AFTER_INPUT) return input;
    if (now - cause.answer <= AFTER_INPUT && now - cause.answerFrom <= CHAIN) return cause.answerFrom;
    return 0;
  };

  // Element → the times (Date.now()) its text changed on its own, a second apart at least (a burst
  // of changes is one), the latest KEEP of them; at most ELEMENTS elements, the least recently
  // changed dropped first.
  const SPACING = 1000;
  const KEEP = 16;
  const ELEMENTS = 500;
  const selfChanged = new Map();
  Object.defineProperty(window, Symbol.for('planwright.selfChanged'), { value: selfChanged, enumerable: false });
  // Element → when an input (or what it started) last changed it: after that, what it shows is
  // the input's doing until the page changes it on its own again.
  const caused = new Map();
  Object.defineProperty(window, Symbol.for('planwright.causedChange'), { value: caused, enumerable: false });
  const bounded = (map, el, value) => {
    map.delete(el);
    map.set(el, value);
    if (map.size > ELEMENTS) map.delete(map.keys().next().value);
  };
  const remember = (el, now) => {
    const times = selfChanged.get(el) || [];
    if (times.length === 0 || now - times[times.length - 1] >= SPACING) times.push(now);
    if (times.length > KEEP) times.shift();
    // A change from a repeating timer of the page's own marks the element as turning on its own.
    times.repeating = times.repeating || cause.repeating;
    bounded(selfChanged, el, times);
  };
  const SHOWN_BY = new Set(['class', 'style', 'hidden']);
  // A text rewritten (not one added where there was none: a page filling itself in once), or a
  // short element shown or hidden by its attributes (a carousel's slides). At most 300 changes
  // are looked at per batch.
  const noteOwn = (changes) => {
    const now = Date.now();
    if (causeNow()) {
      for (const m of changes.slice(0, 300)) {
        const el = m.target.nodeType === Node.ELEMENT_NODE ? m.target : m.target.parentElement;
        if (el) bounded(caused, el, now);
      }
      return;
    }
    const rewritten = new Map();
    for (const m of changes.slice(0, 300)) {
      const el = m.target.nodeType === Node.ELEMENT_NODE ? m.target : m.target.parentElement;
      if (!el || ['html', 'body', 'main'].includes(el.localName)) continue;
      if (m.type === 'characterData') {
        if (m.oldValue !== m.target.data) remember(el, now);
      } else if (m.type === 'childList') {
        const seen = rewritten.get(el) || { added: false, removed: false };
        seen.added ||= m.addedNodes.length > 0;
        seen.removed ||= m.removedNodes.length > 0;
        rewritten.set(el, seen);
      } else if (SHOWN_BY.has(m.attributeName) && el.textContent.length <= 1000 && el.textContent.trim()) {
        remember(el, now);
      }
    }
    for (const [el, seen] of rewritten) if (seen.added && seen.removed) remember(el, now);
  };

  let observer = null;
  const observed = (changes) => {
    if (!changes.every(tick)) window[key].at = performance.now();
    noteOwn(changes);
  };
  const start = () => {
    observer = new MutationObserver(observed);
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true, characterDataOldValue: true });
  };
  if (document.documentElement) start(); else document.addEventListener('readystatechange', start, { once: true });

  // A timer set by what an input caused runs as its doing: its changes are taken before it ends
  // (the observer would see them after), while the cause is known.
  // A timer the page set on its own runs as the page's own doing, whenever it fires: its changes
  // are taken before it ends too, so that a banner turning just after a click is not the click's.
  const runAs = (callback, from, repeating) => function (...args) {
    const outer = { timer: cause.timer, own: cause.own, repeating: cause.repeating };
    Object.assign(cause, from ? { timer: from, own: false, repeating: false } : { own: true, repeating });
    try {
      return callback.apply(this, args);
    } finally {
      const changes = observer ? observer.takeRecords() : [];
      if (changes.length > 0) observed(changes);
      Object.assign(cause, outer);
    }
  };
  const setTimer = window.setTimeout;
  window.setTimeout = function (callback, ...rest) {
    if (typeof callback !== 'function') return setTimer(callback, ...rest);
    const from = causeNow();
    // A timer set from the page's own timer continues a chain (a clock that sets its next tick).
    return setTimer(runAs(callback, from, !from && cause.own), ...rest);
  };
  const setRepeating = window.setInterval;
  window.setInterval = function (callback, ...rest) {
    if (typeof callback !== 'function') return setRepeating(callback, ...rest);
    return setRepeating(runAs(callback, causeNow(), true), ...rest);
  };

  const pending = new Map();
  // How many of the frame's requests started less than `maxAge` ms ago and have no answer yet;
  // one open longer is background traffic (a long poll).
  const unanswered = (maxAge) => {
    const now = performance.now();
    let n = 0;
    for (const started of pending.values()) if (now - started < maxAge) n++;
    return n;
  };
  Object.defineProperty(window, Symbol.for('planwright.unanswered'), { value: unanswered, enumerable: false });
  let next = 0;
  const track = () => {
    const id = ++next;
    pending.set(id, performance.now());
    const from = causeNow();
    return () => {
      pending.delete(id);
      if (from) Object.assign(cause, { answer: Date.now(), answerFrom: from });
    };
  };
  const fetch = window.fetch;
  if (typeof fetch === 'function') {
    window.fetch = function (...args) {
      const done = track();
      try {
        const answer = fetch.apply(this, args);
        answer.then(done, done);
        return answer;
      } catch (error) {
        done();
        throw error;
      }
    };
  }
  if (typeof XMLHttpRequest === 'function') {
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function (...args) {
      const done = track();
      this.addEventListener('loadend', done, { once: true });
      try {
        return send.apply(this, args);
      } catch (error) {
        done();
        throw error;
      }
    };
  }
})();
