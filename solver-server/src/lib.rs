//! The gRPC face of the puzzle solvers.
