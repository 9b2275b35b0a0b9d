// Keeps the time of the page's last DOM change (a number ticking aside) and the requests the page has started and not
// yet had answered, so that a step can wait for the page to be quiet. The page knows of a request
// the moment it starts one; DevTools' event for it can come later on a loaded machine.
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
  const start = () => {
    const observer = new MutationObserver((changes) => {
      if (!changes.every(tick)) window[key].at = performance.now();
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true, characterDataOldValue: true });
  };
  if (document.documentElement) start(); else document.addEventListener('readystatechange', start, { once: true });

  const pending = new Map();
  Object.defineProperty(window, Symbol.for('planwright.pendingRequests'), { value: pending, enumerable: false });
  let next = 0;
  const track = () => {
    const id = ++next;
    pending.set(id, performance.now());
    return () => pending.delete(id);
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
