'use strict';
// A heuristic Yahtzee/Yams bot; the strategy itself is in strategy.js.
const { runBot } = require('../sdk');
const { decide, warmUp } = require('./strategy');

warmUp();
runBot({ name: 'yahtzee-heuristic-node', version: '1.0', author: 'arena', games: ['yahtzee'], decide });
