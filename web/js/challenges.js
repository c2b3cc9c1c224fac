// @ts-check
// Challenges, as the page keeps them and shows them: those sent to us, ours, the open
// ones anyone may take, the people list they are sent from and who may challenge us,
// all kept current from the server's messages (`applyChallenge`, pure, tested with
// `node --test web/test`); the sentences that tell of them, as the terminal client
// says them; an open challenge's link; and the People screen.

import { h, fill } from './dom.js';
import { t } from './i18n.js';
import { gameLine, timeLine, matchFormatText } from './room.js';
import { levelName } from './notation.js';

/** @typedef {import('./protocol').Challenge} Challenge */
/** @typedef {import('./protocol').ChallengeEnd} ChallengeEnd */
/** @typedef {import('./protocol').ChallengePolicy} ChallengePolicy */
/** @typedef {import('./protocol').DeclineReason} DeclineReason */
/** @typedef {import('./protocol').PlayerLine} PlayerLine */
/** @typedef {import('./protocol').ServerMsg} ServerMsg */

/**
 * The challenges in play for this page.
 * @typedef {{
 *   incoming: Challenge[],
 *   sent: Challenge[],
 *   open: Challenge[],
 *   players: PlayerLine[],
 *   policy: ChallengePolicy,
 * }} Challenges
 */

/**
 * What a challenge message changed, for the page to tell.
 * @typedef {{kind: 'incoming', challenge: Challenge}
 *   | {kind: 'sent', challenge: Challenge}
 *   | {kind: 'ended', id: number, end: ChallengeEnd, was: Challenge | null}
 *   | {kind: 'open'} | {kind: 'players'} | {kind: 'policy', policy: ChallengePolicy}} Change
 */

/** Every reason to decline, in the order a person is offered them (the protocol's). */
/** @type {DeclineReason[]} */
export const REASONS = ['not_now', 'time_control', 'rated_only', 'casual_only', 'no_bots', 'variant'];

/** Who may challenge us, in the order offered. */
/** @type {ChallengePolicy[]} */
export const POLICIES = ['everyone', 'accounts', 'nobody'];

/**
 * None yet: a new connection starts with none (the server voids challenges when their
 * player leaves); who may challenge us is ours to say again.
 * @param {ChallengePolicy} [policy]
 * @returns {Challenges}
 */
export function noChallenges(policy = 'everyone') {
  return { incoming: [], sent: [], open: [], players: [], policy };
}

/**
 * Takes in a server message; null for messages not about challenges.
 * @param {Challenges} ch
 * @param {ServerMsg} msg
 * @returns {Change | null}
 */
export function applyChallenge(ch, msg) {
  if (typeof msg !== 'object' || msg === null) return null;
  if ('Challenged' in msg) {
    const c = msg.Challenged;
    ch.incoming = [...ch.incoming.filter((x) => x.id !== c.id), c];
    return { kind: 'incoming', challenge: c };
  }
  if ('ChallengeSent' in msg) {
    const c = msg.ChallengeSent;
    ch.sent = [...ch.sent.filter((x) => x.id !== c.id), c];
    return { kind: 'sent', challenge: c };
  }
  if ('ChallengeEnded' in msg) {
    const { id, end } = msg.ChallengeEnded;
    const was = [...ch.incoming, ...ch.sent, ...ch.open].find((x) => x.id === id) || null;
    forget(ch, id);
    return { kind: 'ended', id, end, was };
  }
  if ('OpenChallenges' in msg) {
    ch.open = [...msg.OpenChallenges];
    return { kind: 'open' };
  }
  if ('Players' in msg) {
    ch.players = [...msg.Players];
    return { kind: 'players' };
  }
  if ('ChallengesSet' in msg) {
    ch.policy = msg.ChallengesSet;
    return { kind: 'policy', policy: msg.ChallengesSet };
  }
  return null;
}

/**
 * Drops challenge `id` from every list.
 * @param {Challenges} ch
 * @param {number} id
 */
export function forget(ch, id) {
  ch.incoming = ch.incoming.filter((x) => x.id !== id);
  ch.sent = ch.sent.filter((x) => x.id !== id);
  ch.open = ch.open.filter((x) => x.id !== id);
}

/**
 * Open challenges someone else made (ours are in `sent`).
 * @param {Challenges} ch
 * @param {string} me
 */
export function othersOpen(ch, me) {
  return ch.open.filter((c) => c.from !== me);
}

/**
 * The open challenge a link names (`#challenge=4`, with the key's fingerprint after it
 * as the host's QR code carries it), or null.
 * @param {string} hash
 */
export function linkedChallenge(hash) {
  const m = /(?:^#|&)challenge=(\d{1,10})(?:&|$)/.exec(hash);
  return m ? Number(m[1]) : null;
}

/**
 * The address of an open challenge's page: this server's page with `#challenge=ID`, and
 * the key's fingerprint if this page was opened with one (as the terminal's link has).
 * @param {string} origin
 * @param {string} hash this page's hash
 * @param {number} id
 */
export function challengeLink(origin, hash, id) {
  const fp = /(?:^#|&)(fp=[0-9a-f]{64})(?:&|$)/i.exec(hash);
  return `${origin}/#challenge=${id}${fp ? `&${fp[1]}` : ''}`;
}

/**
 * The name a challenge is sent to for the server's bot of a level: `Bot (max)`.
 * @param {import('./protocol').Level} level
 */
export function botName(level) {
  return `Bot (${levelName(level)})`;
}

// ---- words ---------------------------------------------------------------------------

/**
 * A name with its BOT tag when it is a bot account's: `Rapfi BOT`.
 * @param {string} name
 * @param {boolean | undefined} bot
 */
export function tagged(name, bot) {
  return bot ? `${name} ${t('challenge.bot_tag')}` : name;
}

/**
 * What a challenge plays: `15x15, caro rule, clock 5m+3s, rated` (and its match).
 * @param {Challenge} c
 */
export function terms(c) {
  const s = c.settings;
  const parts = [gameLine(s), timeLine(s.time), s.rated === false ? t('challenge.casual') : t('challenge.rated')];
  if (s.match_format) parts.push(t('match.line_waiting', { format: matchFormatText(s.match_format) }));
  return parts.join(', ');
}

/**
 * Who moves first, said to `me`: `you move first`, `An moves first`, `a coin decides`.
 * @param {Challenge} c
 * @param {string} me
 */
export function firstText(c, me) {
  const other = c.to || t('challenge.taker');
  const first = c.settings.first;
  if (first === 'random') return t('challenge.first_random');
  const [who, mine] = first === 'me' ? [c.from, c.from === me] : [other, c.from !== me];
  return mine ? t('challenge.first_you') : t('challenge.first_them', { name: who });
}

/**
 * `An challenges you (#3): 15x15, caro rule, clock 5m+3s, rated; An moves first.`
 * @param {Challenge} c
 * @param {string} me
 */
export function incomingText(c, me) {
  return t('challenge.incoming', { name: tagged(c.from, c.from_bot), id: c.id, terms: terms(c), first: firstText(c, me) });
}

/**
 * `Challenge 3 sent to Bình: ...` / `Open challenge 4 made: ...`.
 * @param {Challenge} c
 */
export function sentText(c) {
  return c.to ? t('challenge.sent', { id: c.id, name: c.to, terms: terms(c) }) : t('challenge.sent_open', { id: c.id, terms: terms(c) });
}

/** @param {DeclineReason} reason */
export function reasonText(reason) {
  return t(`challenge.reason_${reason}`);
}

/** @param {ChallengePolicy} policy */
export function policyText(policy) {
  return t(`challenge.policy_${policy}`);
}

/**
 * How a challenge ended, said to `me`; `warn` when it came to nothing.
 * @param {number} id
 * @param {ChallengeEnd} end
 * @param {Challenge | null} was
 * @param {string} me
 * @returns {{text: string, warn: boolean}}
 */
export function endedText(id, end, was, me) {
  const mine = !was || was.from === me;
  const other = was ? (was.from === me ? was.to || t('challenge.taker') : was.from) : '';
  if (typeof end === 'object' && 'accepted' in end) {
    const { room, by } = end.accepted;
    return { text: by === me ? t('challenge.you_accepted', { id, room }) : t('challenge.accepted', { id, name: by, room }), warn: false };
  }
  if (typeof end === 'object' && 'declined' in end) {
    const { by, reason } = end.declined;
    return { text: by === me ? t('challenge.you_declined', { id, reason: reasonText(reason) }) : t('challenge.declined', { id, name: by, reason: reasonText(reason) }), warn: by !== me };
  }
  if (end === 'cancelled') return { text: mine ? t('challenge.you_cancelled', { id }) : t('challenge.cancelled', { id, name: other }), warn: !mine };
  if (end === 'expired') return { text: t('challenge.expired', { id }), warn: true };
  return { text: t('challenge.withdrawn', { id, name: other }), warn: true };
}

/**
 * A people-list line's name: the server's bot in the reader's words, a bot account
 * tagged.
 * @param {PlayerLine} p
 */
export function playerName(p) {
  return p.level ? t('seat.bot', { level: t(`level.${levelName(p.level)}`) }) : p.name;
}

// ---- the People screen ---------------------------------------------------------------

/**
 * What the People screen may ask for.
 * @typedef {{
 *   toLobby: () => void,
 *   refresh: () => void,
 *   challenge: (to: string | null, guest: boolean) => void,
 *   answer: (c: Challenge) => void,
 *   accept: (id: number) => void,
 *   cancel: (id: number) => void,
 *   setPolicy: (policy: ChallengePolicy) => void,
 *   link: (id: number) => string,
 * }} PeopleActions
 */

/**
 * One challenge as a list line, with its buttons.
 * @param {Challenge} c
 * @param {string} text
 * @param {import('./dom.js').Child[]} buttons
 * @param {import('./dom.js').Child} [more]
 */
function challengeRow(c, text, buttons, more = null) {
  return h('li', { class: 'room-row challenge-row', dataset: { challenge: c.id } }, h('div', { class: 'room-info' }, h('span', {}, text), more), h('div', { class: 'room-buttons' }, buttons));
}

/**
 * An open challenge of ours: its link, to copy or to show as the host's QR code.
 * @param {Challenge} c
 * @param {(id: number) => string} link
 */
export function openLinkLine(c, link) {
  const url = link(c.id);
  return h('span', { class: 'muted challenge-link' }, t('web.challenge_link'), ' ', h('a', { href: url, class: 'link-url', dataset: { challenge: c.id } }, url));
}

/**
 * Draws the People screen: challenges to us, ours, the open ones, then who is on the
 * server (and the server's bots), and who may challenge us.
 * @param {HTMLElement} root
 * @param {Challenges} ch
 * @param {import('./main.js').Page} page
 * @param {PeopleActions} act
 */
export function renderPeople(root, ch, page, act) {
  const me = page.me.name;
  const guestMe = !page.me.account;
  const section = (/** @type {string} */ id, /** @type {string} */ title, /** @type {HTMLElement[]} */ rows) =>
    h('section', { class: 'people-section', id }, h('h3', {}, title), rows.length ? h('ul', { class: 'rooms' }, rows) : h('p', { class: 'empty' }, t('challenge.none')));
  const incoming = ch.incoming.map((c) =>
    challengeRow(c, incomingText(c, me), [
      h('button', { type: 'button', class: 'primary accept', onclick: () => act.accept(c.id) }, t('keys.accept_challenge_short')),
      h('button', { type: 'button', class: 'decline', onclick: () => act.answer(c) }, t('keys.decline_challenge_short')),
    ]),
  );
  const sent = ch.sent.map((c) => challengeRow(c, sentText(c), [h('button', { type: 'button', class: 'cancel', onclick: () => act.cancel(c.id) }, t('keys.cancel_challenge_short'))], c.to ? null : openLinkLine(c, act.link)));
  const open = othersOpen(ch, me).map((c) =>
    challengeRow(c, `#${c.id} ${tagged(c.from, c.from_bot)}: ${terms(c)}`, [h('button', { type: 'button', class: 'primary take', onclick: () => act.accept(c.id) }, t('keys.accept_challenge_short'))]),
  );
  const people = ch.players
    .filter((p) => p.name !== me)
    .map((p) => {
      const guest = !p.account && !p.level;
      const notes = [p.bot ? t('challenge.bot_tag') : null, p.playing ? t('challenge.playing') : null, p.challenges === 'nobody' ? t('challenge.off') : p.challenges === 'accounts' ? t('challenge.accounts_only') : null, guest ? t('web.guest') : null].filter(Boolean);
      const closed = p.challenges === 'nobody' || (p.challenges === 'accounts' && guestMe);
      return h(
        'li',
        { class: 'room-row person', dataset: { name: p.name } },
        h('div', { class: 'room-info' }, h('strong', {}, playerName(p)), notes.length ? h('span', { class: 'muted' }, notes.join(' · ')) : null),
        h('div', { class: 'room-buttons' }, h('button', { type: 'button', class: 'challenge', disabled: closed, onclick: () => act.challenge(p.level ? botName(p.level) : p.name, guest) }, t('keys.challenge_person_short'))),
      );
    });
  const policy = h(
    'select',
    { id: 'challenge-policy', onchange: (/** @type {Event} */ e) => act.setPolicy(/** @type {ChallengePolicy} */ (/** @type {HTMLSelectElement} */ (e.target).value)) },
    POLICIES.map((p) => h('option', { value: p, selected: p === ch.policy }, policyText(p))),
  );
  fill(
    root,
    h(
      'div',
      { class: 'records people', id: 'people' },
      h(
        'div',
        { class: 'lobby-head' },
        h('h2', {}, t('challenge.people')),
        h(
          'div',
          { class: 'lobby-buttons' },
          h('button', { id: 'btn-open-challenge', type: 'button', onclick: () => act.challenge(null, guestMe) }, t('keys.challenge_open_short')),
          h('button', { id: 'btn-people-refresh', type: 'button', onclick: () => act.refresh() }, t('web.refresh')),
          h('button', { id: 'btn-back', type: 'button', onclick: () => act.toLobby() }, t('keys.back_to_lobby_short')),
        ),
      ),
      h('label', { class: 'field', for: 'challenge-policy' }, h('span', {}, t('settings.challenges')), policy),
      incoming.length ? section('people-incoming', t('challenge.section_incoming'), incoming) : null,
      sent.length ? section('people-sent', t('challenge.section_sent'), sent) : null,
      open.length ? section('people-open', t('challenge.section_open'), open) : null,
      section('people-list', t('challenge.section_people'), people),
    ),
  );
}
