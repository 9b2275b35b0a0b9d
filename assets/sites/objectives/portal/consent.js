// The portal's consent banner, as a consent platform injects it: on every portal page until a
// choice is made (kept in localStorage), 1.2 s after load (at once under ?instant=1), fixed over
// the bottom of the viewport. Records `cookies {choice: "reject" | "accept"}`; the banner goes
// once the server has the event.
(function () {
  'use strict';
  const KEY = 'northwind.consent';
  if (localStorage.getItem(KEY)) return;
  const style = document.createElement('style');
  style.textContent = `
    .consent { position: fixed; left: 0; right: 0; bottom: 0; z-index: 100; padding: 1.25rem 1.5rem 1.5rem;
      background: #fff; border-top: 4px solid #0f6b5c; box-shadow: 0 -8px 24px rgba(0, 0, 0, 0.18); }
    .consent .inner { max-width: 60rem; margin: 0 auto; display: flex; gap: 1.5rem; align-items: flex-end; flex-wrap: wrap; }
    .consent .text { flex: 1 1 30rem; }
    .consent h2 { margin: 0 0 0.4rem; font-size: 1.15rem; }
    .consent p { margin: 0 0 0.4rem; }
    .consent .actions { display: flex; gap: 0.5rem; }
    .consent .actions button { padding: 0.65rem 1.2rem; }`;
  document.head.append(style);
  const banner = document.createElement('div');
  banner.className = 'consent';
  banner.setAttribute('role', 'dialog');
  banner.setAttribute('aria-labelledby', 'consent-title');
  banner.setAttribute('aria-describedby', 'consent-text');
  banner.innerHTML = `
    <div class="inner">
      <div class="text">
        <h2 id="consent-title">We value your privacy</h2>
        <p id="consent-text">Northwind Wholesale uses cookies to keep you signed in and, with your permission, to
          measure how the portal is used and to improve it. You can accept all cookies or keep only the
          ones the portal needs to work.</p>
        <p><a href="#cookie-policy">Read our cookie policy</a></p>
      </div>
      <div class="actions">
        <button type="button" class="secondary" data-choice="reject">Reject non-essential</button>
        <button type="button" data-choice="accept">Accept all</button>
      </div>
    </div>`;
  banner.addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-choice]');
    if (!button) return;
    const choice = button.dataset.choice;
    for (const other of banner.querySelectorAll('button')) other.disabled = true;
    await fixture.record('cookies', { choice });
    localStorage.setItem(KEY, choice);
    banner.remove();
  });
  fixture.later(1200, () => document.body.append(banner));
})();
