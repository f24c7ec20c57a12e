//! Solitaire's own flag: the most moves a case may ask for.

use clap::Args;

/// The default and the most of `--max-solitaire-moves`. The search stops by itself once a
/// frontier is empty (the board has 635,376 positions), so the cap only keeps absurd limits out.
const MOVES_LIMIT: u32 = 256;

/// What the server lets a Solitaire case ask.
#[derive(Debug, Clone, Args)]
pub struct Flags {
    /// Largest Solitaire `max_moves` accepted (1 to 256: a search ends by itself long before,
    /// the board having 635,376 positions); larger requests get INVALID_ARGUMENT.
    #[arg(id = "max_solitaire_moves", long = "max-solitaire-moves", value_name = "MAX_SOLITAIRE_MOVES",
          env = "SOLVER_MAX_SOLITAIRE_MOVES", default_value_t = MOVES_LIMIT,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MOVES_LIMIT)))]
    pub max_moves: u32,
}

/// The family's flags' ids, in the order `--help` lists them.
pub(crate) const HELP_ORDER: [&str; 1] = ["max_solitaire_moves"];
