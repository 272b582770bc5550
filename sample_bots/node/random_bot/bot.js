'use strict';
// A bot that picks a uniformly random legal action, in every game.
//
// The choice is drawn from a hash of the observation itself, so the same match replays
// identically (tournament resume and replays rely on deterministic sample bots).
const crypto = require('crypto');
const { runBot } = require('../sdk');

function decide(observation, legalActions) {
  const digest = crypto.createHash('sha256').update(JSON.stringify(observation)).digest();
  // 48 bits of the hash: the bias of the modulo is far below anything measurable.
  return digest.readUIntBE(0, 6) % legalActions.length;
}

if (require.main === module) {
  runBot({ name: 'random-node', version: '1.0', author: 'arena', games: ['*'], decide });
}

module.exports = { decide };
