//! The options of the commands that look at one position and its target.

/// The options of the commands that look at one position and its target (`hint`, `verify`).
#[derive(Debug, clap::Args)]
pub(super) struct Common {
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
