// @ts-check
// The WebSocket to the host: the protocol's messages as JSON, the Hello and its version
// check, coming back after a drop with the resume token (every 2 s for 30 s, as the
// terminal client does), the heartbeat (no word for 15 s is a dead link), and why the
// connection was lost, in the server's words where it gave them.

import { loadResume, saveResume, saveLogin } from './prefs.js';

const RETRY_EVERY_MS = 2000;
const RETRY_FOR_MS = 30000;
/** The server pings every 5 s: silence for three pings is a dead link, as the terminal holds it. */
export const SILENCE_MS = 15000;

/** @typedef {import('./protocol').ServerMsg} ServerMsg */
/** @typedef {import('./protocol').ClientMsg} ClientMsg */
/** @typedef {import('./protocol').Credentials} Credentials */

// The server's close codes, as the error codes the page words: the close's reason is
// the server's sentence (why a connection over its budget, or a stopping server, ends).
/** @type {Record<number, import('./protocol').ErrorCode>} */
const CLOSE_CODES = { 1001: 'shutting_down', 1011: 'internal', 1013: 'busy' };

/**
 * The server's reason for closing, as the error it would have sent; null if it gave none.
 * @param {{ code: number, reason: string }} event
 * @returns {import('./protocol').ErrorMsg | null}
 */
export function closeReason(event) {
  if (!event.reason || event.code === 1000) return null;
  return { code: CLOSE_CODES[event.code] || 'unexpected', message: event.reason };
}

/**
 * Whether a link last heard from at `heard` (ms) is dead at `now`.
 * @param {number} heard
 * @param {number} now
 */
export function silent(heard, now) {
  return now - heard > SILENCE_MS;
}

/**
 * Why the connection was lost: the server's error (shutting down, taken over...), the
 * heartbeat's silence, or nothing known.
 * @typedef {{code: import('./protocol').ErrorCode | 'silent', message: string} | null} Cause
 */

export class Connection {
  /**
   * `version`: the protocol version this page speaks. `handlers`: onMessage(msg),
   * onStatus(kind, detail) with kind 'connecting' | 'welcome' | 'reconnecting' (detail:
   * {attempt, cause}) | 'reconnected' | 'closed' | 'gave_up' | 'taken' (detail: the
   * server's error).
   * @param {number} version
   * @param {{onMessage: (msg: ServerMsg) => void, onStatus: (kind: string, detail?: any) => void}} handlers
   */
  constructor(version, handlers) {
    this.version = version;
    this.handlers = handlers;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.name = '';
    // How to log in again after a drop: the account token once the server gave one,
    // else the password as a login (kept in memory only); null for a guest.
    /** @type {Credentials | null} */
    this.account = null;
    // The server's Error before a Welcome: why it closed the door (a wrong password, a
    // name that belongs to an account...).
    /** @type {import('./protocol').ErrorMsg | null} */
    this.refusal = null;
    this.welcomed = false;
    this.closing = false;
    // Why the connection was last lost (see Cause), for the page to say.
    /** @type {Cause} */
    this.lastClose = null;
    // When the server was last heard from (ms), for the heartbeat's watchdog.
    this.heard = 0;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.watchdog = undefined;
    /** @type {number | null} */
    this.lostAt = null;
    this.attempt = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
  }

  /** Connects as `name` (with `account` credentials, or null for a guest), taking back
   * this browser's seat if it had one.
   * @param {string} name
   * @param {Credentials | null} [account]
   */
  open(name, account = null) {
    this.name = name;
    this.account = account;
    this.closing = false;
    this.lastClose = null;
    this.lostAt = null;
    this.attempt = 0;
    this.dial(false);
  }

  /** @param {boolean} again */
  dial(again) {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.ws = ws;
    this.handlers.onStatus(again ? 'reconnecting' : 'connecting', { attempt: this.attempt, cause: this.lastClose });
    ws.onopen = () => {
      this.heard = Date.now();
      clearInterval(this.watchdog);
      // The server pings every few seconds: a link silent for longer is dead (a laptop
      // asleep, a cable pulled, a server that stopped answering), closed and dialled again.
      this.watchdog = setInterval(() => {
        if (this.ws === ws && silent(this.heard, Date.now())) {
          this.lastClose = { code: 'silent', message: '' };
          clearInterval(this.watchdog);
          ws.close();
          this.lost(ws);
        }
      }, 1000);
      const resume = loadResume();
      const token = resume && resume.name === this.name ? resume.token : null;
      this.refusal = null;
      this.sendRaw({ Hello: { version: this.version, name: this.name, resume: token, account: this.account } });
    };
    ws.onmessage = (event) => {
      this.heard = Date.now();
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return; // not ours to read
      }
      // The server's heartbeat: answered at once, or after three unanswered pings the
      // server takes the page for gone and holds its seat.
      if (msg && msg.Ping !== undefined) {
        this.sendRaw({ Pong: msg.Ping });
        return;
      }
      if (msg && msg.Error && !this.welcomed) this.refusal = msg.Error;
      // Another window (or device) came in with this session's token: going back at once
      // would take it from them, and they from us, for ever.
      if (msg && msg.Error && this.welcomed && (msg.Error.code === 'taken_over' || msg.Error.code === 'shutting_down')) {
        this.lastClose = msg.Error;
      }
      if (msg && msg.Welcome) {
        /** @type {import('./protocol').Welcome} */
        const w = msg.Welcome;
        if (w.account_token) {
          // Kept so a reload, a new window or a browser restart logs in again without
          // the password; after a drop too.
          saveLogin({ name: w.name, token: w.account_token });
          this.account = { token: w.account_token };
        } else if (this.account && 'password' in this.account) {
          this.account = { password: { ...this.account.password, register: false, remember: false } };
        }
        saveResume({ token: w.resume, name: this.name, account: !!w.account });
        const back = this.lostAt !== null;
        this.welcomed = true;
        this.lastClose = null;
        this.lostAt = null;
        this.attempt = 0;
        this.handlers.onStatus(back ? 'reconnected' : 'welcome', msg.Welcome);
      }
      this.handlers.onMessage(msg);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      const said = closeReason(event);
      if (said && !(this.lastClose && this.lastClose.code === 'taken_over')) this.lastClose = said;
      this.lost(ws);
    };
  }

  /**
   * The link `ws` is gone (closed by either side, or silent too long): says why, and
   * dials again unless it was closed on purpose, refused at the door or taken over.
   * @param {WebSocket} ws
   */
  lost(ws) {
    if (this.ws !== ws) return;
    this.ws = null;
    clearInterval(this.watchdog);
    if (this.closing) return;
    const said = this.lastClose;
    if (said && said.code === 'taken_over') {
      this.welcomed = false;
      this.lostAt = null;
      this.handlers.onStatus('taken', said);
      return;
    }
    if (!this.welcomed && !this.refusal && said && said.code !== 'silent' && this.lostAt === null) this.refusal = { code: said.code, message: said.message };
    // Refused at the door (a wrong password on the way back, say): trying again
    // would only be refused again.
    if (!this.welcomed && this.refusal) {
      this.lostAt = null;
      this.handlers.onStatus('closed', this.refusal);
      return;
    }
    if (!this.welcomed) {
      if (this.lostAt === null) {
        this.handlers.onStatus('closed', this.refusal);
        return;
      }
    }
    this.retry();
  }

  retry() {
    const now = Date.now();
    if (this.lostAt === null) this.lostAt = now;
    this.welcomed = false;
    if (now - this.lostAt > RETRY_FOR_MS) {
      this.lostAt = null;
      this.handlers.onStatus('gave_up', '');
      return;
    }
    this.attempt += 1;
    this.handlers.onStatus('reconnecting', { attempt: this.attempt, cause: this.lastClose });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.dial(true), this.attempt === 1 ? 200 : RETRY_EVERY_MS);
  }

  /**
   * Sends one client message (an object or a unit variant's name). False if offline.
   * @param {ClientMsg} msg
   */
  send(msg) {
    return this.sendRaw(msg);
  }

  /** @param {ClientMsg} msg */
  sendRaw(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  online() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN && this.welcomed;
  }

  /** Closes on purpose: no reconnection, and the seat's and the login's tokens are
   * forgotten. */
  close() {
    this.closing = true;
    this.welcomed = false;
    this.account = null;
    clearTimeout(this.timer);
    clearInterval(this.watchdog);
    saveResume(null);
    saveLogin(null);
    if (this.ws) this.ws.close();
  }

  /** Lets go of the connection without forgetting anything (a window whose session
   * another one took over, until its player takes it back). */
  drop() {
    this.closing = true;
    clearTimeout(this.timer);
    clearInterval(this.watchdog);
    if (this.ws) this.ws.close();
  }
}
