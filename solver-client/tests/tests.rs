//! End-to-end tests of the solver-client binary.
