'use strict';
// A Node bot whose decide always throws: the SDK must answer with an error, not crash.
const path = require('path');
const { runBot } = require(path.resolve(__dirname, '../../../../sample_bots/node/sdk'));

runBot({ name: 'node-throws', version: '1.0', games: ['*'], decide: () => { throw new Error('deliberately broken'); } });
