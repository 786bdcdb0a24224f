// The rules dialog: GET /api/rules (docs/rules.md) rendered with the safe markdown reader.

import { h, modal, replaceChildren } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { markdownToDom } from './markdown.js';

let cached = null;

export function showRules() {
  const body = h('div', { class: 'rules-text', 'aria-busy': 'true' }, h('p', { text: t('rules.loading') }));
  modal(t('rules.title'), body, { wide: true });
  const load = cached ? Promise.resolve(cached) : api.rules().then((data) => {
    cached = data && typeof data.markdown === 'string' ? data.markdown : '';
    return cached;
  });
  load.then((markdown) => {
    body.removeAttribute('aria-busy');
    if (markdown.trim()) replaceChildren(body, markdownToDom(markdown));
    else replaceChildren(body, h('p', { text: t('rules.missing') }));
    if (t('rules.englishNote')) body.prepend(h('p', { class: 'note', text: t('rules.englishNote') }));
  }).catch(() => {
    body.removeAttribute('aria-busy');
    replaceChildren(body, h('p', { class: 'error', text: t('rules.failed') }));
  });
}
