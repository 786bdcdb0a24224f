// node --test: the invite link's address and the loopback advice (static/demon/invite.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { inviteLink, loopbackAdvice } from '../../static/demon/invite.js';

test('the link carries the address the server chose', () => {
  const invite = { base: 'http://192.168.1.23:8000', loopback_only: false, lan: ['192.168.1.23'] };
  assert.equal(inviteLink(invite, 'KXWPRTM', 'http://127.0.0.1:8000'), 'http://192.168.1.23:8000/r/KXWPRTM');
  assert.equal(inviteLink({ base: 'https://cards.example/' }, 'AB', 'x'), 'https://cards.example/r/AB');
});

test('before the server answered, the page origin is used', () => {
  assert.equal(inviteLink(null, 'AB', 'http://127.0.0.1:8000'), 'http://127.0.0.1:8000/r/AB');
});

test('no advice for a link friends can open', () => {
  assert.equal(loopbackAdvice({ base: 'https://cards.example', loopback_only: false, lan: [] }), null);
  assert.equal(loopbackAdvice(null), null);
});

test('a loopback link names the command and the network address to share', () => {
  const advice = loopbackAdvice({ base: 'http://127.0.0.1:8123', loopback_only: true, lan: ['192.168.1.23'] });
  assert.equal(advice.key, 'lobby.loopbackLan');
  assert.deepEqual(advice.vars, { command: 'make run HOST=0.0.0.0', address: 'http://192.168.1.23:8123' });
});

test('without a known network address the advice names the setting', () => {
  const advice = loopbackAdvice({ base: 'http://localhost', loopback_only: true, lan: [] });
  assert.equal(advice.key, 'lobby.loopback');
  assert.equal(advice.vars.setting, 'DEMON_PUBLIC_URL');
});
