//! Integration tests of solver-core.
