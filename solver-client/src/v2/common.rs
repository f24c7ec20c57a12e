//! The options of the commands that look at one position and its target.

/// The options of the commands that look at one position and its target (`hint`, `verify`).
#[derive(Debug, clap::Args)]
pub(super) struct Common {
    /// The shape, rows x columns (2..=8 each), e.g. `2x4`, as `solve sliding --size` takes it;
    /// the boards are then rows × cols numbers. Default: 9 numbers are 3×3, 16 are 4×4.
    #[arg(long, value_name = "RxC", value_parser = crate::family::sliding::any_shape::parse_size)]
    pub(super) size: Option<solver_core::tiles::grid::Grid>,
    /// The board to reach (default: the standard goal, blank last), in the same forms as BOARD.
    #[arg(long, value_name = "BOARD")]
    pub(super) target: Option<String>,
    /// Most search nodes the server may spend (0: the server's default).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub(super) node_budget: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub(super) json: bool,
}
