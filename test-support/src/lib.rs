//! What the tests, benchmarks and examples of solver-core and solver-server share, written once:
//! the seeded generator and the random walks that make their boards ([`rng`]), Korf's 100
//! instances ([`korf`]), what bash offers on TAB with a generated completion script
//! ([`completion`]) and, with the `server` feature, a real server in the test's process
//! (`server`) and the certificate authorities of the TLS tests (`tls`). Never a dependency of
//! anything shipped.

pub mod completion;
pub mod korf;
pub mod rng;
#[cfg(feature = "server")]
pub mod server;
#[cfg(feature = "server")]
pub mod tls;
