// Shared by every fixture page: reports what was done to the site server (POST /__record, same
// origin) and implements ?instant=1, which skips every artificial delay so two drivers can be
// compared on the same final DOM.
(function () {
  'use strict';
  const instant = new URLSearchParams(location.search).get('instant') === '1';
  const page = location.pathname.replace(/^\/+/, '') || 'index.html';

  // Resolves once the server has the event, so a page can record and then navigate away;
  // keepalive lets the request finish even if the page goes first.
  function record(action, detail) {
    const body = JSON.stringify({ page, action, detail: detail || {} });
    return fetch('/__record', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
      keepalive: true,
    })
      .then((response) => {
        if (!response.ok) console.error('fixture: /__record refused', action, response.status);
      })
      .catch((err) => console.error('fixture: /__record failed', action, err));
  }

  // setTimeout, except under ?instant=1 where it runs now (scripts sit at the end of <body>,
  // so "now" is before the load event).
  function later(ms, fn) {
    if (instant) fn();
    else setTimeout(fn, ms);
  }

  // A URL carrying ?instant=1 on when this page has it (iframes, API calls, next pages). Same-origin
  // URLs stay port-free (path, query, hash) so snapshots of the page do not depend on the port.
  function withInstant(url) {
    const target = new URL(url, location.href);
    if (instant) target.searchParams.set('instant', '1');
    return target.origin === location.origin ? target.pathname + target.search + target.hash : target.href;
  }

  // Under ?instant=1, points the same-origin links in `root` (default: the document) at their
  // ?instant=1 URL, so a chain of pages stays instant; downloads and in-page anchors are left alone.
  function keepInstant(root) {
    if (!instant) return;
    for (const link of (root || document).querySelectorAll('a[href]')) {
      const href = link.getAttribute('href');
      if (href.startsWith('#') || link.hasAttribute('download')) continue;
      if (new URL(href, location.href).origin !== location.origin) continue;
      link.setAttribute('href', withInstant(href));
    }
  }

  window.fixture = { instant, page, record, later, withInstant, keepInstant };
})();
