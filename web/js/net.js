// @ts-check
// The WebSocket to the host: the protocol's messages as JSON, the Hello and its version
// check, and coming back after a drop with the resume token (every 2 s for 30 s, as
// the terminal client does).

import { loadResume, saveResume } from './prefs.js';

const RETRY_EVERY_MS = 2000;
const RETRY_FOR_MS = 30000;

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

export class Connection {
  /**
   * `version`: the protocol version this page speaks. `handlers`: onMessage(msg),
   * onStatus(kind, detail) with kind 'connecting' | 'welcome' | 'reconnecting' |
   * 'reconnected' | 'closed' | 'gave_up'.
   * @param {number} version
   * @param {{onMessage: (msg: ServerMsg) => void, onStatus: (kind: string, detail?: any) => void}} handlers
   */
  constructor(version, handlers) {
    this.version = version;
    this.handlers = handlers;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.name = '';
    // {password, register} for an account, null for a guest; kept in memory only, to
    // log in again after a drop (as a login: the name is registered by then).
    /** @type {Credentials | null} */
    this.account = null;
    // The server's Error before a Welcome: why it closed the door (a wrong password, a
    // name that belongs to an account...).
    /** @type {import('./protocol').ErrorMsg | null} */
    this.refusal = null;
    this.welcomed = false;
    this.closing = false;
    // Why the server last closed the connection, in its words ('' if it did not say).
    this.lastClose = '';
    /** @type {number | null} */
    this.lostAt = null;
    this.attempt = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
  }

  /** Connects as `name` (with `account` {password, register}, or null for a guest),
   * taking back this tab's seat if it had one.
   * @param {string} name
   * @param {Credentials | null} [account]
   */
  open(name, account = null) {
    this.name = name;
    this.account = account;
    this.closing = false;
    this.dial(false);
  }

  /** @param {boolean} again */
  dial(again) {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.ws = ws;
    this.handlers.onStatus(again ? 'reconnecting' : 'connecting', this.attempt);
    ws.onopen = () => {
      const resume = loadResume();
      const token = resume && resume.name === this.name ? resume.token : null;
      this.refusal = null;
      this.sendRaw({ Hello: { version: this.version, name: this.name, resume: token, account: this.account } });
    };
    ws.onmessage = (event) => {
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
      if (msg && msg.Welcome) {
        if (this.account) this.account = { ...this.account, register: false };
        saveResume({ token: msg.Welcome.resume, name: this.name, account: !!msg.Welcome.account });
        const back = this.lostAt !== null;
        this.welcomed = true;
        this.lastClose = '';
        this.lostAt = null;
        this.attempt = 0;
        this.handlers.onStatus(back ? 'reconnected' : 'welcome', msg.Welcome);
      }
      this.handlers.onMessage(msg);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closing) return;
      const said = closeReason(event);
      if (said) this.lastClose = said.message;
      if (!this.welcomed && !this.refusal && said && this.lostAt === null) this.refusal = said;
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
    };
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
    this.handlers.onStatus('reconnecting', this.attempt);
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

  /** Closes on purpose: no reconnection, and the seat's token is forgotten. */
  close() {
    this.closing = true;
    this.welcomed = false;
    this.account = null;
    clearTimeout(this.timer);
    saveResume(null);
    if (this.ws) this.ws.close();
  }
}
