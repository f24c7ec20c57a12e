//! How `solve` shows its answers.

use clap::Args;

/// How answers are shown.
#[derive(Debug, Clone, Copy, Args)]
pub(crate) struct View {
    /// Also print the board after every move.
    #[arg(long)]
    pub(crate) show: bool,
    /// Print one JSON object per case instead of text.
    #[arg(long, conflicts_with = "show")]
    pub(crate) json: bool,
}
