// Tallybook's shared behaviour: the Reports menu in the header, which opens while the pointer is
// over it (or the keyboard focus is inside it), as many SaaS menus do, and the toast that confirms
// a save for 1.5 s and then goes.
(function () {
  'use strict';
  function hoverMenus(root) {
    for (const menu of (root || document).querySelectorAll('.menu')) {
      const trigger = menu.querySelector('[aria-haspopup]');
      const list = menu.querySelector('.submenu');
      let closing = null;
      const open = () => {
        clearTimeout(closing);
        list.hidden = false;
        trigger.setAttribute('aria-expanded', 'true');
      };
      const close = () => {
        list.hidden = true;
        trigger.setAttribute('aria-expanded', 'false');
      };
      menu.addEventListener('mouseenter', open);
      menu.addEventListener('mouseleave', () => {
        closing = setTimeout(close, 300);
      });
      menu.addEventListener('focusin', open);
      menu.addEventListener('focusout', (event) => {
        if (!menu.contains(event.relatedTarget)) close();
      });
      // A click on the trigger itself does nothing: the menu is a hover menu.
      trigger.addEventListener('click', (event) => event.preventDefault());
    }
  }

  function toast(text) {
    const box = document.createElement('div');
    box.className = 'toast';
    box.setAttribute('role', 'status');
    box.textContent = text;
    document.body.append(box);
    // The toast's life is not an artificial delay: it goes after 1.5 s under ?instant=1 too.
    setTimeout(() => box.remove(), 1500);
  }

  window.tally = { hoverMenus, toast };
  document.addEventListener('DOMContentLoaded', () => {
    hoverMenus();
    fixture.keepInstant();
  });
})();
