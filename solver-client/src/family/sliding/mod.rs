//! Sliding boards of any shape from 2×2 to 8×8 (the 8- and 15-puzzle are the 3×3 and 4×4 ones),
//! the whole family in one place: its query and answer, and the tables a shape needs
//! (`query.rs`), the checks of the service's replies (`reply.rs`), how answers and boards are
//! shown (`draw.rs`), the judge formats (`judge/`), `solve eight|fifteen|sliding` (`human.rs`,
//! with the any-shape boards, `--size` and `--max-ratio` in `any_shape.rs`) and the load tool's
//! sliding cases (`load.rs`). The shared code reaches it through the registries (`family/mod.rs`,
//! `cli.rs`, `judge/problem.rs`, `load/class.rs`); the `solver.v2` commands (`v2/`) and the
//! watched solve (`watched.rs`), which only sliding boards have, use it directly.

pub(crate) mod any_shape;
pub(crate) mod draw;
pub(crate) mod human;
pub(crate) mod judge;
pub(crate) mod load;
pub(crate) mod query;
mod reply;
