// The invite link: which address it carries and what to tell the host when that address
// works only on the host's own computer. The server decides the address (GET /api/invite,
// app/api/invite.py) because only it knows whether it listens on the network; this module
// is pure so that node --test checks it (tests/js/invite.test.mjs).

// The link to a room, from the server's answer (or, before it came, the page's origin).
/**
 * The server's answer to GET /api/invite.
 * @typedef {{base?: string, loopback_only?: boolean, lan?: string[]}} InviteInfo
 */

/**
 * @param {InviteInfo | null | undefined} invite
 * @param {string} code
 * @param {string} fallbackOrigin
 */
export function inviteLink(invite, code, fallbackOrigin) {
  const base = invite && invite.base ? invite.base : fallbackOrigin;
  return `${base.replace(/\/+$/, '')}/r/${code}`;
}

// What the lobby says under a link only this computer can open: null when the link is
// fine, else the i18n key and its values. With a known network address the advice names
// the address friends will use once the server listens on the network.
/**
 * @param {InviteInfo | null | undefined} invite
 * @returns {{key: string, vars: Record<string, string>} | null}
 */
export function loopbackAdvice(invite) {
  if (!invite || !invite.loopback_only) return null;
  const port = portOf(invite.base);
  if (invite.lan && invite.lan.length) {
    return { key: 'lobby.loopbackLan', vars: { command: 'make run HOST=0.0.0.0', address: `http://${invite.lan[0]}${port}` } };
  }
  return { key: 'lobby.loopback', vars: { command: 'make run HOST=0.0.0.0', setting: 'DEMON_PUBLIC_URL' } };
}

/** @param {string | undefined} base */
function portOf(base) {
  const match = /^[a-z]+:\/\/(?:\[[^\]]*\]|[^/:]+)(:\d+)?/i.exec(base || '');
  return match && match[1] ? match[1] : '';
}
