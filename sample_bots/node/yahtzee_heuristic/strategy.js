'use strict';
/**
 * A Yahtzee/Yams strategy that reads only the protocol messages.
 *
 * Every open box has a target value ("par": roughly what it is worth on average when kept
 * for later). Writing `points` in a box now is worth `points - par`, plus a nudge toward the
 * upper bonus for the upper boxes. Before scoring, the strategy looks ahead exactly over
 * the rerolls left: for every set of dice it could keep, the expected value of the best
 * final choice over every roll of the other dice. It then takes the legal action (a score
 * or a reroll) with the best expected value.
 */

const UPPER = ['ones', 'twos', 'threes', 'fours', 'fives', 'sixes'];

const PAR = {
  yahtzee: {
    ones: 2, twos: 5, threes: 8.5, fours: 12, fives: 15.5, sixes: 19,
    three_kind: 21, four_kind: 13, full_house: 22, small_straight: 29, large_straight: 32,
    yahtzee: 16, chance: 22,
  },
  yams: {
    ones: 2, twos: 5, threes: 8.5, fours: 12, fives: 15.5, sixes: 19,
    plus: 24, minus: -11, four_kind: 30, full_house: 36, small_straight: 38, large_straight: 33,
    yahtzee: 24, rigole: 12,
  },
};
const UPPER_NUDGE = 0.6; // per upper-box point above (or below) three dice of that face
const JOKER_BONUS = 100;

// --- dice tables, built once -------------------------------------------------------------

/** Every sorted multiset of `size` faces 1..6. */
function multisets(size, lowest = 1) {
  if (size === 0) return [[]];
  const result = [];
  for (let face = lowest; face <= 6; face += 1) {
    for (const rest of multisets(size - 1, face)) result.push([face, ...rest]);
  }
  return result;
}

const key = (dice) => dice.join('');
const factorial = (n) => (n <= 1 ? 1 : n * factorial(n - 1));

const ALL_DICE = multisets(5); // the 252 sorted rolls of five dice
const DICE_INDEX = new Map(ALL_DICE.map((dice, i) => [key(dice), i]));
const KEEPS = [0, 1, 2, 3, 4, 5].flatMap((size) => multisets(size));

/** For each keep: the final dice (as an index into ALL_DICE) and the chance of each. */
const OUTCOMES = new Map(KEEPS.map((keep) => {
  const rolled = 5 - keep.length;
  const outcomes = multisets(rolled).map((faces) => {
    let ways = factorial(rolled);
    for (let face = 1; face <= 6; face += 1) ways /= factorial(faces.filter((f) => f === face).length);
    const final = [...keep, ...faces].sort((a, b) => a - b);
    return [DICE_INDEX.get(key(final)), ways / 6 ** rolled];
  });
  return [key(keep), outcomes];
}));

/** For each roll: the keys of every distinct subset of its dice that can be kept. */
const SUBKEEPS = ALL_DICE.map((dice) => {
  const found = new Set();
  for (let mask = 0; mask < 32; mask += 1) found.add(key(dice.filter((_, i) => mask & (1 << i))));
  return [...found];
});

// --- scoring of hypothetical dice ---------------------------------------------------------

function counts(dice) {
  const c = [0, 0, 0, 0, 0, 0, 0];
  for (const face of dice) c[face] += 1;
  return c;
}

function hasRun(c, from, length) {
  for (let face = from; face < from + length; face += 1) if (!c[face]) return false;
  return true;
}

/** The points `box` scores with `dice` (without the joker rule: legal actions carry real values). */
function points(variant, box, dice) {
  const upper = UPPER.indexOf(box);
  if (upper >= 0) return (upper + 1) * dice.filter((f) => f === upper + 1).length;
  const c = counts(dice);
  const most = Math.max(...c);
  const sum = dice.reduce((a, b) => a + b, 0);
  const full = c.includes(3) && c.includes(2);
  const small = hasRun(c, 1, 4) || hasRun(c, 2, 4) || hasRun(c, 3, 4);
  const large = hasRun(c, 1, 5) || hasRun(c, 2, 5);
  if (variant === 'yams') {
    switch (box) {
      case 'plus': case 'minus': return sum;
      case 'four_kind': return most >= 4 ? 40 + sum : 0;
      case 'full_house': return full ? 30 + sum : 0;
      case 'small_straight': return small ? 45 : 0;
      case 'large_straight': return large ? 50 : 0;
      case 'yahtzee': return most === 5 ? 50 + sum : 0;
      case 'rigole': {
        const four = c.indexOf(4);
        return four > 0 && sum - 4 * four + four === 7 ? 50 : 0;
      }
      default: return 0;
    }
  }
  switch (box) {
    case 'three_kind': return most >= 3 ? sum : 0;
    case 'four_kind': return most >= 4 ? sum : 0;
    case 'full_house': return full ? 25 : 0;
    case 'small_straight': return small ? 30 : 0;
    case 'large_straight': return large ? 40 : 0;
    case 'yahtzee': return most === 5 ? 50 : 0;
    case 'chance': return sum;
    default: return 0;
  }
}

/** How good writing `value` in `box` now is, compared with keeping the box for later. */
function utility(variant, box, value, chasingBonus) {
  let gain = box === 'minus' ? -value : value;
  const upper = UPPER.indexOf(box);
  if (upper >= 0 && chasingBonus) gain += UPPER_NUDGE * (value - 3 * (upper + 1));
  return gain - (PAR[variant][box] ?? 0);
}

// --- look-ahead tables, cached per situation ------------------------------------------------

const tableCache = new Map();

/** Expected value of each keep with one reroll left (`one`) and with two (`two`). */
function tables(variant, openBoxes, chasingBonus, joker) {
  const cacheKey = [variant, chasingBonus, joker, ...openBoxes].join(' ');
  let found = tableCache.get(cacheKey);
  if (found) return found;
  const final = ALL_DICE.map((dice) => {
    let best = -Infinity;
    for (const box of openBoxes) best = Math.max(best, utility(variant, box, points(variant, box, dice), chasingBonus));
    return joker && dice[0] === dice[4] ? best + JOKER_BONUS : best;
  });
  const expect = (values) => {
    const result = new Map();
    for (const [keepKey, outcomes] of OUTCOMES) {
      let total = 0;
      for (const [index, p] of outcomes) total += p * values[index];
      result.set(keepKey, total);
    }
    return result;
  };
  const one = expect(final);
  const afterFirstReroll = SUBKEEPS.map((keeps) => Math.max(...keeps.map((k) => one.get(k))));
  const two = expect(afterFirstReroll);
  found = { one, two };
  if (tableCache.size > 256) tableCache.clear();
  tableCache.set(cacheKey, found);
  return found;
}

/** The index of the chosen action in legalActions. */
function decide(observation, legalActions) {
  const view = observation.yahtzee;
  const variant = view.variant === 'yams' ? 'yams' : 'yahtzee';
  const card = view.cards[view.current_player];
  const openBoxes = card.boxes.filter((box) => !box.filled).map((box) => box.name);
  const yahtzeeBox = card.boxes.find((box) => box.name === 'yahtzee');
  const upperOpen = openBoxes.some((box) => UPPER.includes(box));
  const chasingBonus = upperOpen && (variant === 'yams' || card.upper_bonus === 0);
  const joker = variant === 'yahtzee' && Boolean(yahtzeeBox && yahtzeeBox.filled && yahtzeeBox.score === 50);
  const dice = [...view.dice].sort((a, b) => a - b);
  const { one, two } = tables(variant, openBoxes, chasingBonus, joker);
  let bestIndex = 0;
  let bestValue = -Infinity;
  legalActions.forEach((action, index) => {
    const move = action.yahtzee;
    let value;
    if (move.kind === 'score') {
      value = utility(variant, move.score.box, move.score.points, chasingBonus) + move.score.bonus;
    } else {
      const kept = [...dice];
      for (const face of move.reroll.dice) kept.splice(kept.indexOf(face), 1);
      // A tiny penalty so that, on a tie, scoring now beats rolling for nothing.
      value = (view.rerolls_left >= 2 ? two : one).get(key(kept)) - 1e-9;
    }
    if (value > bestValue) {
      bestIndex = index;
      bestValue = value;
    }
  });
  return bestIndex;
}

/** Build the tables of a game's first turn in both variants, so the first decisions are fast too. */
function warmUp() {
  for (const [variant, par] of Object.entries(PAR)) tables(variant, Object.keys(par), true, false);
}

module.exports = { decide, warmUp, points, multisets };
