// Devil's Grip, played on the page: every move, undo and redo is applied here at once
// with the rules in grip-rules.js (grip-local.js keeps the history), in the same
// frame as the input, online or not; grip-link.js sends the operations to the server in
// order, in batches, and the server replays them with its engine. The server stays the
// authority: a batch it refuses, or a record that differs from the page's, puts the page
// back on the server's game with the reason shown (grip-reconcile.js decides whether they
// agree). A deal can be started and played to the end with no connection (the deal comes
// from its number); it is sent, and so verified, when the server is reachable again, and
// counts in the statistics only then. Hints (grip-hint.js), par (grip-par.js), "only deals
// that can be won" and a certified deal's solution come from the server (its search sees
// only the player's view) and wait for the connection; grip-meta.js keeps what only the
// server knows. When the player knows the stock's order and the rules can prove the deal
// won from here (grip-finish.js), the page offers to finish it and plays the remaining
// moves (grip-autofinish.js). This file is the controller, only the wiring: the session
// (page/grip-session.js: the state, the moves, the requests, auto-finish), the view
// (page/grip-view.js: the elements and their drawing), the input (page/grip-input.js:
// selection and keys) and the first-game guide, connected and destroyed together.

import { toast } from '../common/dom.js';
import { t } from '../common/i18n.js';
import { api } from '../common/api.js';
import { getGripGame, setGripGame, recordGripResult, getPref, setPref } from '../common/storage.js';
import { play } from '../common/sound.js';
import { createGripGuide } from '../guide/guide.js';
import { createLink } from './grip-link.js';
import { createGripSession } from './page/grip-session.js';
import { createGripView } from './page/grip-view.js';
import { createGripInput } from './page/grip-input.js';

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/**
 * @param {HTMLElement} container
 * @param {{navigate?: (path: string) => void}} [options]
 */
export function mount(container, { navigate } = {}) {
  const view = createGripView(container, {
    navigate,
    onDeal: () => input.deal(),
    on: {
      /** @param {'undo' | 'redo' | 'end' | 'hint'} name */
      op: (name) => (name === 'hint' ? session.askHint() : session.op({ op: name })),
      finish: () => session.autoFinish(),
      retry: () => session.retry(),
      endDeal: () => session.endDeal(),
      newDeal: (which) => session.newDeal(which),
      showSolution: () => session.showSolution(),
      setPasses: (value) => session.setPasses(value),
      setWinnable: (checked) => session.setWinnable(checked),
      winnableOnly: () => session.winnableOnly(),
    },
    replayOn: {
      prev: () => session.replayer.prev(),
      next: () => session.replayer.next(),
      play: () => session.replayer.toggle(),
      close: () => { session.replayer.stop(); render(); },
    },
  });
  const session = createGripSession({
    createLink,
    api,
    store: { getGripGame, setGripGame, recordGripResult, getPref, setPref },
    sleep,
    now: () => performance.now(),
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (timer) => clearTimeout(timer),
    sound: play,
    toast,
    confirm: (question) => window.confirm(question),
    page: {
      changed: () => render(),
      cleared: () => input.clear(),
      drop: () => input.drop(),
      shown: (game) => guide.update(game),
      announce: (text) => view.announce(text),
    },
  });
  const input = createGripInput(view, session);
  const guide = createGripGuide(view.el, { ask: () => session.askHint() }); // first-game guide (guide.js)

  function render() {
    if (session.destroyed()) return;
    view.draw(session.screen());
    input.repaint();
  }

  render();
  session.load();

  return {
    rerender: () => { view.forget(); render(); },
    title: () => `${t('home.gripTitle')} · ${t('app.title')}`,
    keys: () => [[t('keys.grip'), [
      [`D / ${t('keys.space')}`, t('keys.gripDeal')],
      ['T', t('keys.pickTalon')],
      ['← ↑ → ↓', t('keys.cellMove')],
      ['Enter', t('keys.gripEnter')],
      ['X', t('keys.swap')],
      ['U / R', t('keys.undoRedo')],
      ['H', t('keys.hint')],
      ['E', t('keys.endDeal')],
      ['N', t('keys.newDeal')],
      ['Esc', t('keys.drop')],
    ]]],
    destroy() {
      session.destroy();
      guide.destroy();
      input.destroy();
      view.remove();
    },
  };
}
