// The score panel beside every drill, as training environments show it: a countdown that ticks
// and a reward line that changes on its own, whatever the person does (?instant=1 too: it is
// the page's clock, not a delay before an outcome).
(function () {
  'use strict';
  const panel = document.createElement('aside');
  panel.className = 'score';
  panel.setAttribute('aria-label', 'Episode');
  panel.innerHTML = '<div>Last reward: <span id="reward">-</span></div><div>Last 10 average: <span id="average">-</span></div>' +
    '<div>Time left: <span id="time-left">120 / 120sec</span></div><div>Episodes done: <span id="episodes">0</span></div>';
  document.body.append(panel);
  let left = 120;
  let episodes = 0;
  setInterval(() => {
    left -= 1;
    if (left <= 117) {
      // The previous episode timed out: the panel scores it on its own.
      left = 120;
      episodes += 1;
      document.getElementById('reward').textContent = '-1.00';
      document.getElementById('average').textContent = (-episodes / Math.min(10, episodes + 1)).toFixed(2);
      document.getElementById('episodes').textContent = String(episodes);
    }
    document.getElementById('time-left').textContent = `${left} / 120sec`;
  }, 1000);
})();
