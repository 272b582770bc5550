// A bot that picks a uniformly random legal action, in every game.
//
// The choice is drawn from a hash of the observation itself, so the same match replays
// identically (tournament resume and replays rely on deterministic sample bots).
package main

import (
	"os"

	"arena/arenabot"
	arenav1 "arena/v1"
)

// mix is splitmix64's finalizer: it spreads every input bit over the result.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func decide(observation *arenav1.Observation, legal []*arenav1.Action) int {
	return int(mix(arenabot.ObservationHash(observation)) % uint64(len(legal)))
}

func main() {
	os.Exit(arenabot.Run(arenabot.Info{Name: "random-go", Version: "1.0", Author: "arena", Games: []string{"*"}}, decide))
}
