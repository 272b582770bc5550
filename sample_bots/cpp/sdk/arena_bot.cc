// The C++ bot SDK: see arena_bot.h.
#include "arena_bot.h"

#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <memory>
#include <utility>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>

#include "arena/v1/bot.grpc.pb.h"

namespace arena::sdk {
namespace {

constexpr auto kShutdownGrace = std::chrono::milliseconds(500);

class BotService final : public arena::v1::Bot::Service {
 public:
  BotService(const Info& info, DecideFn decide) : decide_(std::move(decide)) {
    info_.set_name(info.name);
    info_.set_version(info.version);
    info_.set_author(info.author);
    info_.set_protocol_version(kProtocolVersion);
    for (const auto& game : info.games) info_.add_games(game);
  }

  grpc::Status Identify(grpc::ServerContext*, const arena::v1::IdentifyRequest*, arena::v1::BotInfo* reply) override {
    *reply = info_;
    return grpc::Status::OK;
  }

  grpc::Status StartMatch(grpc::ServerContext*, const arena::v1::StartMatchRequest*,
                          arena::v1::StartMatchResponse*) override {
    return grpc::Status::OK;
  }

  grpc::Status Decide(grpc::ServerContext*, const arena::v1::DecideRequest* request,
                      arena::v1::DecideResponse* reply) override {
    if (request->legal_actions_size() == 0) {
      return {grpc::StatusCode::INVALID_ARGUMENT, "no legal actions to choose from"};
    }
    try {
      reply->set_action_index(decide_(request->observation(), request->legal_actions()));
      return grpc::Status::OK;
    } catch (const std::exception& error) {
      std::cerr << info_.name() << ": decide failed: " << error.what() << std::endl;
      return {grpc::StatusCode::INTERNAL, std::string("decide failed: ") + error.what()};
    }
  }

  grpc::Status EndMatch(grpc::ServerContext*, const arena::v1::EndMatchRequest*,
                        arena::v1::EndMatchResponse*) override {
    return grpc::Status::OK;
  }

 private:
  arena::v1::BotInfo info_;
  DecideFn decide_;
};

}  // namespace

std::uint64_t ObservationHash(const arena::v1::Observation& observation) {
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    observation.SerializeToCodedStream(&coded);
  }
  std::uint64_t hash = 1469598103934665603ULL;
  for (unsigned char byte : bytes) {
    hash ^= byte;
    hash *= 1099511628211ULL;
  }
  return hash;
}

int RunBot(const Info& info, DecideFn decide, const std::string& address_arg) {
  std::string address = address_arg;
  if (address.empty()) {
    const char* from_env = std::getenv("ARENA_BOT_ADDRESS");
    if (from_env != nullptr) address = from_env;
  }
  if (address.empty()) {
    std::cerr << info.name << ": no address to serve on: set ARENA_BOT_ADDRESS (the referee does)" << std::endl;
    return 2;
  }

  // Block the stop signals in every thread (gRPC's threads inherit this mask) and wait for
  // them below with sigwait, where shutting the server down is safe.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  grpc::EnableDefaultHealthCheckService(true);  // serves grpc.health.v1, SERVING for ""
  BotService service(info, std::move(decide));
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(address, grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || (port == 0 && address.rfind("unix:", 0) != 0)) {
    std::cerr << info.name << ": cannot listen on " << address << std::endl;
    return 2;
  }

  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  if (auto* health = server->GetHealthCheckService()) health->Shutdown();  // NOT_SERVING from now on
  server->Shutdown(std::chrono::system_clock::now() + kShutdownGrace);
  server->Wait();
  return 0;
}

}  // namespace arena::sdk
