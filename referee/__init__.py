"""The referee: game engines, the match runner and the gRPC bot clients."""
