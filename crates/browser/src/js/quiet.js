// Keeps the time of the page's last DOM change, so that a step can wait for the page to be quiet.
(() => {
  const key = Symbol.for('planwright.lastMutation');
  if (window[key] !== undefined) return;
  Object.defineProperty(window, key, { value: { at: performance.now() }, enumerable: false });
  const start = () => {
    const observer = new MutationObserver(() => { window[key].at = performance.now(); });
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  };
  if (document.documentElement) start(); else document.addEventListener('readystatechange', start, { once: true });
})();
