// A bot that picks a uniformly random legal action, in every game.
//
// The choice is drawn from a hash of the observation itself, so the same match replays
// identically (tournament resume and replays rely on deterministic sample bots).
#include "arena_bot.h"

namespace {

std::uint64_t Mix(std::uint64_t x) {  // splitmix64's finalizer: spreads every input bit
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

int Decide(const arena::v1::Observation& observation, const arena::sdk::Actions& legal_actions) {
  return static_cast<int>(Mix(arena::sdk::ObservationHash(observation)) % legal_actions.size());
}

}  // namespace

int main() {
  return arena::sdk::RunBot({"random-cpp", "1.0", "arena", {"*"}}, Decide);
}
