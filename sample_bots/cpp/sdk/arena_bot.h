// Write an arena bot in C++ as one function: decide(observation, legal_actions) -> index.
//
//   #include "arena_bot.h"
//   int main() {
//     return arena::sdk::RunBot({"first", "1.0", "me", {"*"}},
//                               [](const auto& observation, const auto& legal) { return 0; });
//   }
//
// RunBot serves the arena.v1.Bot service and the standard grpc.health.v1.Health service
// (reporting SERVING for "") on the address in ARENA_BOT_ADDRESS (unix:///... or
// host:port), and returns 0 after a clean stop on SIGTERM or SIGINT, or 2 when it cannot
// listen. The message classes (arena::v1::Observation, arena::v1::Action, ...) are generated
// from proto/arena/v1/*.proto by the CMake build.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "arena/v1/bot.pb.h"

namespace arena::sdk {

constexpr unsigned kProtocolVersion = 1;

struct Info {
  std::string name;
  std::string version;
  std::string author;
  std::vector<std::string> games{"*"};  // game names, or "*" for every game
};

using Actions = google::protobuf::RepeatedPtrField<arena::v1::Action>;

// Returns an index into legal_actions. A decide that throws answers the call with an
// error: the referee counts a fault and plays a random legal action instead.
using DecideFn = std::function<int(const arena::v1::Observation& observation, const Actions& legal_actions)>;

// Serves until SIGTERM or SIGINT. `address` defaults to $ARENA_BOT_ADDRESS.
int RunBot(const Info& info, DecideFn decide, const std::string& address = "");

// A 64-bit FNV-1a hash of the observation's serialized bytes: the same observation gives
// the same value on every run and machine, for bots that must play reproducibly.
std::uint64_t ObservationHash(const arena::v1::Observation& observation);

}  // namespace arena::sdk
