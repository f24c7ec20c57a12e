//! Four-piece Solitaire on the 8×8 board, the whole family in one place: its query and answer
//! (`query.rs`), the checks of the service's replies (`reply.rs`), how answers are shown
//! (`draw.rs`), the POJ 1198 / HDU 1401 judge format (`judge.rs`), `solve solitaire`
//! (`human.rs`) and the load tool's Solitaire cases (`load.rs`). The shared code reaches it only
//! through its registries: `family/mod.rs`, `cli.rs`, `judge/problem.rs` and `load/class.rs`.

mod draw;
pub(crate) mod human;
pub(crate) mod judge;
pub(crate) mod load;
pub(crate) mod query;
mod reply;
