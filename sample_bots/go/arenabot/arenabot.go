// Package arenabot lets a Go bot be written as one function: decide(observation, legalActions) -> index.
//
//	func main() {
//		os.Exit(arenabot.Run(arenabot.Info{Name: "first", Version: "1.0", Games: []string{"*"}},
//			func(obs *arenav1.Observation, legal []*arenav1.Action) int { return 0 }))
//	}
//
// Run serves the arena.v1.Bot service and the standard grpc.health.v1.Health service
// (SERVING for "") on the address in ARENA_BOT_ADDRESS (unix:///path or host:port) and
// returns 0 after a clean stop on SIGTERM or SIGINT, or 2 when it cannot listen. The
// arenav1 package is generated from proto/arena/v1/*.proto by sample_bots/build.sh.
package arenabot

import (
	"context"
	"fmt"
	"hash/fnv"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	arenav1 "arena/v1"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// ProtocolVersion is the version of the arena protocol this package implements.
const ProtocolVersion = 1

const shutdownGrace = 500 * time.Millisecond

// Info is what the bot says about itself in Identify.
type Info struct {
	Name, Version, Author string
	Games                 []string // game names, or "*" for every game (the default)
}

// Decide returns an index into legal. A panic answers the call with an error: the referee
// counts a fault and plays a random legal action instead.
type Decide func(observation *arenav1.Observation, legal []*arenav1.Action) int

type botServer struct {
	arenav1.UnimplementedBotServer
	info   *arenav1.BotInfo
	decide Decide
}

func (s *botServer) Identify(context.Context, *arenav1.IdentifyRequest) (*arenav1.BotInfo, error) {
	return s.info, nil
}

func (s *botServer) StartMatch(context.Context, *arenav1.StartMatchRequest) (*arenav1.StartMatchResponse, error) {
	return &arenav1.StartMatchResponse{}, nil
}

func (s *botServer) Decide(_ context.Context, request *arenav1.DecideRequest) (reply *arenav1.DecideResponse, err error) {
	if len(request.GetLegalActions()) == 0 {
		return nil, status.Error(codes.InvalidArgument, "no legal actions to choose from")
	}
	defer func() {
		if problem := recover(); problem != nil {
			fmt.Fprintf(os.Stderr, "%s: decide failed: %v\n", s.info.Name, problem)
			reply, err = nil, status.Errorf(codes.Internal, "decide failed: %v", problem)
		}
	}()
	index := s.decide(request.GetObservation(), request.GetLegalActions())
	return &arenav1.DecideResponse{ActionIndex: int32(index)}, nil
}

func (s *botServer) EndMatch(context.Context, *arenav1.EndMatchRequest) (*arenav1.EndMatchResponse, error) {
	return &arenav1.EndMatchResponse{}, nil
}

// listen opens "unix:///path", "unix:path" or "host:port".
func listen(address string) (net.Listener, error) {
	if strings.HasPrefix(address, "unix:") {
		path := strings.TrimPrefix(address, "unix:")
		if strings.HasPrefix(path, "//") {
			path = strings.TrimPrefix(path, "//")
		}
		return net.Listen("unix", path)
	}
	return net.Listen("tcp", address)
}

// ObservationHash is a 64-bit FNV-1a hash of the observation's deterministic serialization:
// the same observation gives the same value on every run, for bots that must replay exactly.
func ObservationHash(observation *arenav1.Observation) uint64 {
	data, err := proto.MarshalOptions{Deterministic: true}.Marshal(observation)
	if err != nil {
		panic(err)
	}
	hash := fnv.New64a()
	hash.Write(data)
	return hash.Sum64()
}

// Run serves until SIGTERM or SIGINT and returns the process's exit status.
func Run(info Info, decide Decide) int {
	address := os.Getenv("ARENA_BOT_ADDRESS")
	if address == "" {
		fmt.Fprintf(os.Stderr, "%s: no address to serve on: set ARENA_BOT_ADDRESS (the referee does)\n", info.Name)
		return 2
	}
	listener, err := listen(address)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: cannot listen on %s: %v\n", info.Name, address, err)
		return 2
	}
	games := info.Games
	if len(games) == 0 {
		games = []string{"*"}
	}
	server := grpc.NewServer()
	arenav1.RegisterBotServer(server, &botServer{decide: decide, info: &arenav1.BotInfo{
		Name: info.Name, Version: info.Version, Author: info.Author, ProtocolVersion: ProtocolVersion, Games: games}})
	healthServer := health.NewServer() // reports SERVING for "" from the start
	healthpb.RegisterHealthServer(server, healthServer)

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	served := make(chan error, 1)
	go func() { served <- server.Serve(listener) }()
	select {
	case <-stop:
	case err := <-served:
		fmt.Fprintf(os.Stderr, "%s: server stopped: %v\n", info.Name, err)
		return 1
	}
	healthServer.Shutdown() // NOT_SERVING from now on
	done := make(chan struct{})
	go func() { server.GracefulStop(); close(done) }()
	select {
	case <-done:
	case <-time.After(shutdownGrace):
		server.Stop()
	}
	return 0
}
