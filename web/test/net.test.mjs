// The page's reading of the server's WebSocket close (run with the other page tests).
import test from 'node:test';
import assert from 'node:assert/strict';

import { closeReason } from '../js/net.js';

test("the server's close says why, as an error the page can word", () => {
  assert.deepEqual(closeReason({ code: 1013, reason: 'your machine has 32 connections open' }), {
    code: 'busy',
    message: 'your machine has 32 connections open',
  });
  assert.equal(closeReason({ code: 1001, reason: 'the server is shutting down' }).code, 'shutting_down');
  assert.equal(closeReason({ code: 1008, reason: 'Bot (max) looks like the name of the server\'s bot' }).code, 'unexpected');
  // A plain close, or one that says nothing (1005, 1006), is no reason.
  assert.equal(closeReason({ code: 1000, reason: 'the connection is closed' }), null);
  assert.equal(closeReason({ code: 1005, reason: '' }), null);
  assert.equal(closeReason({ code: 1006, reason: '' }), null);
});

test('a link silent for three heartbeats is dead, as the terminal holds it', async () => {
  const { silent, SILENCE_MS } = await import('../js/net.js');
  assert.equal(SILENCE_MS, 15000);
  assert.equal(silent(1000, 1000 + 15000), false);
  assert.equal(silent(1000, 1000 + 15001), true);
});
