'use strict';
/**
 * Write an arena bot in Node.js as one function: decide(observation, legalActions) -> index.
 *
 *   const { runBot } = require('arena-bot-sdk');   // or require('../sdk') inside this folder
 *   runBot({ name: 'first', version: '1.0', games: ['*'], decide: () => 0 });
 *
 * runBot serves the arena.v1.Bot service and the standard grpc.health.v1.Health service on
 * the address the referee passes in ARENA_BOT_ADDRESS (a unix:///... socket, or host:port),
 * reports SERVING for the service "" once it listens, and stops cleanly on SIGTERM or
 * SIGINT. serve() does the same without installing signal handlers and resolves to the
 * started server, for tests that run a bot in process ("127.0.0.1:0" picks a free port).
 *
 * The protocol is read at run time, so this SDK cannot drift from it: from $ARENA_PROTO_DIR,
 * else the proto/ folder next to this file when it holds arena/v1/bot.proto (a starter kit
 * made by `arena new-bot` carries its own copy), else arena's proto/ folder (../../proto). Messages are plain
 * objects with the .proto field names (snake_case): observation.yahtzee.dice,
 * legalActions[i].text, ... A oneof is also named by a string property: observation.game
 * is 'yahtzee' or 'gin_rummy', action.yahtzee.kind is 'reroll' or 'score'.
 *
 * decide(observation, legalActions, request) may return the index, an object
 * { index, comment }, or a Promise of either. `request` is the whole DecideRequest
 * (match_id, decision_number, time_left_ms, bank_left_ms). A decide that throws, or returns
 * something that is not an integer, answers the call with an error: the referee counts a
 * fault and plays a random legal action instead.
 */

const fs = require('fs');
const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const PROTOCOL_VERSION = 1;
const ADDRESS_VARIABLE = 'ARENA_BOT_ADDRESS';
const HEALTH_PROTO_DIR = path.join(__dirname, 'proto');
const PROTO_DIR = process.env.ARENA_PROTO_DIR
  || (fs.existsSync(path.join(HEALTH_PROTO_DIR, 'arena', 'v1', 'bot.proto'))
    ? HEALTH_PROTO_DIR
    : path.resolve(__dirname, '..', '..', 'proto'));
const SHUTDOWN_GRACE_MS = 500;

let protocol = null;

/** The loaded gRPC package objects: { arena: { v1 }, grpc: { health: { v1 } } }. */
function loadProtocol() {
  if (protocol) return protocol;
  const botProto = path.join(PROTO_DIR, 'arena', 'v1', 'bot.proto');
  if (!fs.existsSync(botProto)) {
    throw new Error(`the protocol is not at ${botProto}: set ARENA_PROTO_DIR to a folder holding arena/v1/*.proto (arena proto --out DIR writes one)`);
  }
  const definition = protoLoader.loadSync(['arena/v1/bot.proto', 'grpc/health/v1/health.proto'], {
    includeDirs: [PROTO_DIR, HEALTH_PROTO_DIR],
    keepCase: true, // field names exactly as in the .proto files
    longs: Number,
    enums: String,
    defaults: true, // absent scalars read as 0, '' or false; absent lists as []
    oneofs: true, // observation.game === 'yahtzee', action.yahtzee.kind === 'score', ...
  });
  protocol = grpc.loadPackageDefinition(definition);
  return protocol;
}

/** Serving status for the health service, with the open Watch streams to tell of changes. */
class HealthStatus {
  constructor(services) {
    this.services = new Set(services);
    this.status = 'NOT_SERVING';
    this.watchers = new Set();
  }

  statusOf(service) {
    return this.services.has(service) ? this.status : null;
  }

  set(status) {
    this.status = status;
    for (const call of this.watchers) {
      const now = this.statusOf(call.request.service);
      if (now) call.write({ status: now });
    }
  }

  closeWatchers() {
    for (const call of this.watchers) call.end();
    this.watchers.clear();
  }

  implementation() {
    return {
      Check: (call, callback) => {
        const status = this.statusOf(call.request.service);
        if (status) callback(null, { status });
        else callback({ code: grpc.status.NOT_FOUND, details: `unknown service ${JSON.stringify(call.request.service)}` });
      },
      Watch: (call) => {
        call.write({ status: this.statusOf(call.request.service) || 'SERVICE_UNKNOWN' });
        this.watchers.add(call);
        const forget = () => this.watchers.delete(call);
        call.on('cancelled', forget);
        call.on('close', forget);
        call.on('error', forget);
      },
    };
  }
}

function describe(error) {
  return error instanceof Error ? error.message : String(error);
}

/** The Bot service: all game logic is in the author's decide. */
function botImplementation(options, info) {
  const hook = (fn, request) => Promise.resolve().then(() => (fn ? fn(request) : undefined));
  return {
    Identify: (call, callback) => callback(null, info),
    StartMatch: (call, callback) => {
      hook(options.startMatch, call.request).then(
        () => callback(null, {}),
        (error) => {
          console.error(error);
          callback({ code: grpc.status.INTERNAL, details: `startMatch failed: ${describe(error)}` });
        });
    },
    Decide: (call, callback) => {
      const request = call.request;
      Promise.resolve()
        .then(() => options.decide(request.observation, request.legal_actions, request))
        .then((answer) => {
          const index = answer !== null && typeof answer === 'object' ? answer.index : answer;
          const comment = answer !== null && typeof answer === 'object' ? String(answer.comment || '') : '';
          if (!Number.isInteger(index)) {
            throw new TypeError(`decide returned ${JSON.stringify(answer)}, not an integer index`);
          }
          callback(null, { action_index: index, comment });
        })
        .catch((error) => {
          console.error(error);
          callback({ code: grpc.status.INTERNAL, details: `decide failed: ${describe(error)}` });
        });
    },
    EndMatch: (call, callback) => {
      hook(options.endMatch, call.request).then(
        () => callback(null, {}),
        (error) => {
          console.error(error);
          callback(null, {}); // the match is over anyway
        });
    },
  };
}

/**
 * Start a bot server and resolve to { server, port, address, stop() }.
 *
 * options: name, version, author (default ''), games (default ['*']), decide, and optionally
 * startMatch(request) / endMatch(request) hooks and address (default $ARENA_BOT_ADDRESS).
 * Rejects when there is no address, it cannot be bound, or decide is not a function.
 */
function serve(options) {
  return new Promise((resolve, reject) => {
    const address = options.address || process.env[ADDRESS_VARIABLE];
    if (!address) {
      reject(new Error(`no address to serve on: set ${ADDRESS_VARIABLE} (the referee does) or pass address`));
      return;
    }
    if (typeof options.decide !== 'function') {
      reject(new TypeError('decide must be a function (observation, legalActions) -> index'));
      return;
    }
    const proto = loadProtocol();
    const info = {
      name: String(options.name || 'bot'),
      version: String(options.version || ''),
      author: String(options.author || ''),
      protocol_version: PROTOCOL_VERSION,
      games: (options.games || ['*']).map(String),
    };
    const server = new grpc.Server();
    const health = new HealthStatus(['', 'arena.v1.Bot']);
    server.addService(proto.arena.v1.Bot.service, botImplementation(options, info));
    server.addService(proto.grpc.health.v1.Health.service, health.implementation());
    server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error, port) => {
      if (error) {
        reject(new Error(`cannot listen on ${address}: ${describe(error)}`));
        return;
      }
      health.set('SERVING');
      let stopping = null;
      const stop = () => {
        if (!stopping) {
          stopping = new Promise((done) => {
            health.set('NOT_SERVING');
            health.closeWatchers();
            const force = setTimeout(() => server.forceShutdown(), SHUTDOWN_GRACE_MS);
            server.tryShutdown(() => {
              clearTimeout(force);
              done();
            });
          });
        }
        return stopping;
      };
      resolve({ server, port, address, stop });
    });
  });
}

/** Serve until SIGTERM or SIGINT, then exit 0; a bad address exits with a one-line error (status 2). */
function runBot(options) {
  const name = options.name || 'bot';
  serve(options).then(
    (bound) => {
      const onSignal = () => bound.stop().then(() => process.exit(0));
      process.once('SIGTERM', onSignal);
      process.once('SIGINT', onSignal);
    },
    (error) => {
      console.error(`${name}: ${describe(error)}`);
      process.exit(2);
    });
}

module.exports = { runBot, serve, loadProtocol, PROTOCOL_VERSION, ADDRESS_VARIABLE };
