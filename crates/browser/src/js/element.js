// Functions called on one element (`this`) through Runtime.callFunctionOn; js.rs wraps this
// file in one function that dispatches to them by name.

// ACTIONABLE: why the element cannot take `action` yet (a text), or null when it can. Pointer
// actions and screenshots also need the element to stand still over two animation frames: for
// them this waits for the first frame and returns `{rect, point, frame}`: its box then, (with
// `pointAndHit`, for an element of the top-level frame, after scrolling it into view) the centre
// of its visible part, and the animation timeline's time; STABLE takes it from there.
async function actionable(action, pointAndHit) {
  const el = this;
  if (!el.isConnected) return 'not attached to the page any more';
  if (el.nodeType !== 1) return 'not an element';
  const style = getComputedStyle(el);
  const rect = el.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0 || style.visibility === 'hidden' || style.visibility === 'collapse') return 'not visible';
  const needsEnabled = !['hover', 'scroll', 'read', 'screenshot'].includes(action);
  if (needsEnabled) {
    if (el.matches(':disabled')) return 'disabled';
    const off = el.closest('[aria-disabled="true"]');
    if (off) return 'disabled (aria-disabled)';
  }
  if (action === 'fill') {
    const tag = el.localName;
    const editable = el.isContentEditable || tag === 'textarea' ||
      (tag === 'input' && !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image', 'hidden'].includes(el.type));
    if (!editable) return 'not a text field (fill needs an input, a textarea or an editable element)';
    if (el.readOnly || el.getAttribute('aria-readonly') === 'true') return 'read-only';
  }
  // As Playwright: only pointer actions and screenshots wait for the element to stand still.
  if (!['click', 'check', 'uncheck', 'hover', 'scroll', 'screenshot'].includes(action)) return null;
  const inView = r => r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  if (pointAndHit && !inView(rect) && el.scrollIntoViewIfNeeded) el.scrollIntoViewIfNeeded(true);
  await new Promise(resolve => requestAnimationFrame(() => resolve()));
  const box = el.getBoundingClientRect();
  const part = [...el.getClientRects()].map(r => {
    const left = Math.max(r.left, 0), top = Math.max(r.top, 0);
    const right = Math.min(r.right, innerWidth), bottom = Math.min(r.bottom, innerHeight);
    return right - left >= 1 && bottom - top >= 1 ? [(left + right) / 2, (top + bottom) / 2] : null;
  }).find(Boolean);
  if (pointAndHit && !part) return 'outside the page or of no size after scrolling';
  return { rect: [box.x, box.y, box.width, box.height], point: pointAndHit ? part : null, frame: document.timeline.currentTime };
}

// STABLE: once an animation frame has passed since `frame` (waiting for one unless it has),
// whether the element still has `rect` (else a text saying it moves); with `point`, whether it
// would receive the pointer there: `{point}` or `{covered: point}`. Without `point`,
// `{point: null}`.
async function stable(rect, point, frame) {
  const el = this;
  if (document.timeline.currentTime === frame) await new Promise(resolve => requestAnimationFrame(() => resolve()));
  if (!el.isConnected) return 'not attached to the page any more';
  const box = el.getBoundingClientRect();
  if ([box.x, box.y, box.width, box.height].some((v, i) => v !== rect[i])) return 'still moving (animating)';
  if (!point) return { point: null };
  let hit = document.elementFromPoint(point[0], point[1]);
  while (hit && hit.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(point[0], point[1]);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  for (let node = hit; node; node = node.parentNode || node.host) {
    if (node === el) return { point };
  }
  return { covered: point };
}

// CONTAINS: whether `hit` is the element or inside it, across shadow roots.
function contains(hit) {
  for (let node = hit; node; node = node.parentNode || node.host) {
    if (node === this) return true;
  }
  return false;
}

// DESCRIBE: a short selector that names the element for a person: tag, id, test id, classes.
function describe() {
  const el = this.nodeType === 1 ? this : this.parentElement;
  if (!el) return '#text';
  let out = el.localName;
  if (el.id) out += '#' + el.id;
  const testId = el.getAttribute('data-testid');
  if (testId) out += `[data-testid="${testId}"]`;
  const classes = [...el.classList].slice(0, 2);
  if (classes.length) out += '.' + classes.join('.');
  return out;
}

// PREPARE_FILL: for inputs that take no typing (date, color, range…) sets the value with input
// and change events and returns 'set'; otherwise focuses and selects the current text and
// returns 'type'. An error text when the value does not fit.
function prepareFill(value) {
  const el = this;
  const formats = {
    date: 'YYYY-MM-DD', time: 'HH:MM', 'datetime-local': 'YYYY-MM-DDTHH:MM', month: 'YYYY-MM', week: 'YYYY-Www',
    color: '#rrggbb', range: 'a number within the range',
  };
  const direct = Object.keys(formats);
  if (el.localName === 'input' && direct.includes(el.type)) {
    el.focus();
    el.value = value;
    // The value is not repeated in the message: it may be a secret.
    if (value !== '' && el.value === '') return `the value is not a valid ${el.type} value (${formats[el.type]})`;
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return 'set';
  }
  el.focus();
  // Typing goes wherever the focus is: a page that moves it elsewhere as the field takes it
  // (into a frame of another site, say) gets nothing typed.
  const root = el.getRootNode();
  const active = root && root.activeElement;
  if (active !== el && !(active && el.contains(active))) return 'the field gave the focus away as it took it; nothing was typed';
  if (el.localName === 'input' || el.localName === 'textarea') {
    el.select();
  } else {
    const range = document.createRange();
    range.selectNodeContents(el);
    const selection = getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
  return 'type';
}

// SELECT_OPTIONS: selects the options whose value or label is one of `wanted`.
function selectOptions(wanted) {
  const el = this;
  if (el.localName !== 'select') return { error: 'not a select element (select option needs a <select>)' };
  const options = [...el.options];
  const chosen = [];
  for (const want of wanted) {
    const option = options.find(o => o.value === want) || options.find(o => o.label.trim() === want.trim()) ||
      options.find(o => o.label.trim().toLowerCase() === want.trim().toLowerCase());
    if (!option) return { error: `no option "${want}"; the options are: ${options.map(o => o.label.trim()).join(', ')}` };
    if (option.disabled) return { error: `option "${want}" is disabled` };
    chosen.push(option);
  }
  if (chosen.length > 1 && !el.multiple) return { error: 'this select takes one option' };
  for (const option of options) option.selected = chosen.includes(option);
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { selected: chosen.map(o => o.label.trim()) };
}

// CHECKED: the checked state of a checkbox, radio or switch, or null when it has none.
function checked() {
  const el = this;
  if (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio')) return el.checked;
  const aria = el.getAttribute('aria-checked');
  if (aria === 'true') return true;
  if (aria === 'false') return false;
  return null;
}

// SURROUNDINGS: the text of the smallest element around this one that holds more text than it
// (a table row, a card, a list item, a section), crossing shadow roots; '' when none does.
function surroundings() {
  const norm = s => (s || '').replace(/\s+/g, ' ').trim();
  const own = norm(this.innerText ?? this.textContent);
  let el = this;
  for (let depth = 0; depth < 12; depth++) {
    el = el.parentElement || (el.getRootNode && el.getRootNode().host) || null;
    if (!el || el === document.body || el === document.documentElement) return '';
    const text = norm(el.innerText ?? el.textContent);
    if (text.length > own.length) return text.slice(0, 300);
  }
  return '';
}

// VALUE: what a form field holds: an input's or text area's value, a select's chosen labels,
// else the element's text.
function value() {
  const el = this;
  if (el.localName === 'select') return [...el.selectedOptions].map(o => o.label.trim()).join(', ');
  if ('value' in el && typeof el.value === 'string' && el.localName !== 'button' && el.localName !== 'li') return el.value;
  if (el.isContentEditable) return (el.innerText || '').trim();
  return (el.getAttribute('aria-valuetext') || el.innerText || el.textContent || '').trim();
}

// TEXT: the element's rendered text.
function text() {
  return (this.innerText ?? this.textContent ?? '').trim();
}

// TABLE: the rows of the table that is or contains this element (or the first table in this
// document), keyed by the header cells.
function table() {
  const root = this;
  const isTable = el => el.localName === 'table' || ['table', 'grid', 'treegrid'].includes(el.getAttribute('role'));
  let tableEl = root.nodeType === 1 && isTable(root) ? root : null;
  if (!tableEl && root.nodeType === 1) tableEl = root.closest('table, [role=table], [role=grid], [role=treegrid]');
  if (!tableEl) tableEl = root.querySelector('table, [role=table], [role=grid], [role=treegrid]');
  if (!tableEl) return { error: 'no table here' };
  const norm = s => (s || '').replace(/\s+/g, ' ').trim();
  const rowsOf = t => t.localName === 'table' ? [...t.rows] : [...t.querySelectorAll('[role=row]')];
  const cellsOf = r => r.localName === 'tr' ? [...r.cells] : [...r.querySelectorAll('[role=cell], [role=gridcell], [role=columnheader], [role=rowheader]')];
  // Footer rows (totals) are not data rows.
  const inFooter = r => r.parentElement && r.parentElement.localName === 'tfoot';
  const rows = rowsOf(tableEl).filter(r => cellsOf(r).length > 0 && !inFooter(r));
  // A cell spanning several columns takes the first; the columns it covers stay empty.
  const spread = r => {
    const out = [];
    for (const c of cellsOf(r)) {
      out.push(c);
      for (let i = 1; i < (c.colSpan || 1); i++) out.push(null);
    }
    return out;
  };
  let headers = null;
  let body = rows;
  const headerRow = rows.find(r => cellsOf(r).every(c => c.localName === 'th' || c.getAttribute('role') === 'columnheader'));
  if (headerRow) {
    headers = spread(headerRow).map(c => (c ? norm(c.innerText) : ''));
    body = rows.filter(r => r !== headerRow && !(r.parentElement && r.parentElement.localName === 'thead'));
  } else if (rows.length) {
    headers = spread(rows[0]).map(c => (c ? norm(c.innerText) : ''));
    body = rows.slice(1);
  }
  const seen = new Map();
  const keys = (headers || []).map((h, i) => {
    let key = h || `column ${i + 1}`;
    const n = (seen.get(key) || 0) + 1;
    seen.set(key, n);
    return n > 1 ? `${key} (${n})` : key;
  });
  const out = body.map(r => {
    const row = {};
    keys.forEach(k => { row[k] = ''; });
    spread(r).forEach((c, i) => { if (c) row[keys[i] || `column ${i + 1}`] = norm(c.innerText); });
    return row;
  });
  return { headers: keys, rows: out };
}

// INVALID_MESSAGE: for a field marked aria-invalid="true", what it says is wrong: the text of its
// aria-errormessage, else of its aria-describedby, else the browser's validationMessage (as
// announce.js reads it); null for a field the browser alone finds invalid.
function invalidMessage() {
  const el = this;
  if (el.getAttribute('aria-invalid') !== 'true') return null;
  const norm = s => (s || '').replace(/\s+/g, ' ').trim().slice(0, 300);
  const textOf = ids => norm((ids || '').split(/\s+/).map(id => el.getRootNode().getElementById(id))
    .filter(Boolean).map(e => e.innerText || e.textContent).join(' '));
  return textOf(el.getAttribute('aria-errormessage')) || textOf(el.getAttribute('aria-describedby')) || norm(el.validationMessage);
}

// FIELD_FACTS: what decides whether a secret may be typed into a field: the origin of the
// document it is in (a frame's own, not the top page's), its input type and autocomplete hint,
// whether it is a search box, and whether its form (or, without one, its document) asks for a
// password — a sign-in form.
function fieldFacts() {
  const el = this;
  const doc = el.ownerDocument;
  const view = doc.defaultView;
  const type = el.localName === 'input' ? (el.getAttribute('type') || 'text').toLowerCase() : el.localName;
  const role = (el.getAttribute('role') || '').toLowerCase();
  const scope = el.form || doc;
  return {
    origin: (view && view.origin) || (doc.location ? doc.location.origin : ''),
    type,
    autocomplete: (el.getAttribute('autocomplete') || '').toLowerCase(),
    search: type === 'search' || role === 'searchbox' || !!el.closest('[role="search"], search'),
    signIn: !!scope.querySelector('input[type="password" i]'),
  };
}
